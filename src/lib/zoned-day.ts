/**
 * Calendar days in a time zone: what a seller means by a date typed in a filter is a day on their own clock
 * (the account's zone), not a UTC day. A zone the runtime does not know counts as UTC, as the console shows it.
 */

const clocks = new Map<string, Intl.DateTimeFormat>();

function clockOf(timeZone: string): Intl.DateTimeFormat {
  let format = clocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    // Zones are a few hundred at most.
    if (clocks.size < 1000) clocks.set(timeZone, format);
  }
  return format;
}

/** The wall clock of an instant in a zone: its date (YYYY-MM-DD) and that wall time read as if it were UTC. */
function wallClock(ms: number, timeZone: string): { date: string; asUtc: number } {
  const p: Record<string, string> = {};
  for (const part of clockOf(timeZone).formatToParts(ms)) p[part.type] = part.value;
  const [y, m, d, h, min] = [p.year, p.month, p.day, p.hour, p.minute].map(Number) as [number, number, number, number, number];
  return { date: `${p.year}-${p.month}-${p.day}`, asUtc: Date.UTC(y, m - 1, d, h, min) };
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a zone; throws for a zone the runtime does not know. */
export function dayIn(instant: Date, timeZone: string): string {
  return wallClock(instant.getTime(), timeZone).date;
}

const HOUR = 3_600_000;

/**
 * The first instant of a calendar day (YYYY-MM-DD) in a zone: its midnight, or the first instant after a
 * summer-time gap at midnight. `addDays` moves the day first (1: the instant the next day starts).
 */
export function startOfDayIn(day: string, timeZone: string, addDays = 0): Date {
  let zone = timeZone;
  try {
    clockOf(zone);
  } catch {
    zone = 'UTC';
  }
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d + addDays);
  const target = new Date(wall).toISOString().slice(0, 10);
  // Midnight as wall time less the zone's offset there, twice: the second pass corrects a guess made on the
  // other side of an offset change.
  let at = wall;
  for (let i = 0; i < 2; i++) at = wall - (wallClock(at, zone).asUtc - Math.floor(at / 60_000) * 60_000);
  // Midnight skipped (a change at 00:00): the day starts at the first instant that is in it.
  while (wallClock(at, zone).date < target) at += HOUR;
  while (wallClock(at - 1, zone).date >= target) at -= HOUR;
  return new Date(at);
}
