/**
 * Timestamps: output is RFC 3339 UTC with milliseconds; input must carry a zone (resolutions §0).
 * Stored as the same ISO text in both databases so ordering and comparison agree everywhere.
 */
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

export function isRfc3339(value: string): boolean {
  return parseTimestamp(value) !== null;
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one (leap years included).
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Parses an RFC 3339 timestamp with a zone; returns null when it is not one. */
export function parseTimestamp(value: string): Date | null {
  const m = RFC3339.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  // Check every field ourselves: Date would silently roll over February 30th or 24:00 into the next day,
  // and only the UTC form would be caught by comparing the parsed day.
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return null;
  // Date.parse handles at most millisecond precision; trim extra fraction digits first.
  const fraction = m[7] ? m[7].slice(0, 4) : '';
  const normalized = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${fraction}${m[8]!.toUpperCase()}`;
  const ms = Date.parse(normalized);
  return Number.isNaN(ms) ? null : new Date(ms);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A date alone (midnight UTC of that day) or an RFC 3339 timestamp with a zone; null when neither. Files and filters take both. */
export function parseDateOrTimestamp(value: string): Date | null {
  const text = value.trim();
  return parseTimestamp(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text);
}

export function toIso(d: Date): string {
  return d.toISOString();
}
