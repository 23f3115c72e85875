/** Go-style (`1h30m`, `15m`, `90s`) and proto-style (`900s`, `1.5s`) durations, in milliseconds. */
const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001, ns: 0.000001 };
const PART = /(\d+(?:\.\d*)?|\.\d+)(h|ms|m|s|us|µs|ns)/y;

/** Milliseconds, or null when the text is not a non-negative duration (a bare number needs a unit, except 0). */
export function parseDuration(value: string): number | null {
  const text = value.trim();
  if (text === '') return null;
  if (text === '0') return 0;
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let match = PART.exec(text); match; match = PART.exec(text)) {
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
    consumed = PART.lastIndex;
  }
  if (consumed !== text.length) return null;
  const ms = Math.round(total);
  // Absurd values (more digits than a double holds exactly) are refused rather than silently rounded.
  return Number.isSafeInteger(ms) ? ms : null;
}
