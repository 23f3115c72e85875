/** Time source passed down through deps so tests can control "now". */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can move forward by hand. */
export function manualClock(start: Date = new Date('2026-01-01T00:00:00.000Z')): Clock & {
  advance(ms: number): void;
  set(d: Date): void;
} {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms: number) => {
      current += ms;
    },
    set: (d: Date) => {
      current = d.getTime();
    },
  };
}
