/**
 * Timestamps: output is RFC 3339 UTC with milliseconds; input must carry a zone (resolutions §0).
 * Stored as the same ISO text in both databases so ordering and comparison agree everywhere.
 */
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

export function isRfc3339(value: string): boolean {
  return RFC3339.test(value);
}

/** Parses an RFC 3339 timestamp with a zone; returns null when it is not one. */
export function parseTimestamp(value: string): Date | null {
  const m = RFC3339.exec(value.trim());
  if (!m) return null;
  // Date.parse handles at most millisecond precision; trim extra fraction digits first.
  const fraction = m[7] ? m[7].slice(0, 4) : '';
  const normalized = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${fraction}${m[8]!.toUpperCase()}`;
  const ms = Date.parse(normalized);
  if (Number.isNaN(ms)) return null;
  const d = new Date(ms);
  // Reject calendar overflow such as February 30th, which Date would silently roll over.
  if (m[8]!.toUpperCase() === 'Z' && d.getUTCDate() !== Number(m[3])) return null;
  return d;
}

export function toIso(d: Date): string {
  return d.toISOString();
}
