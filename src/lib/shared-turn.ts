import { nextTurn } from './next-turn.js';

/**
 * One event-loop turn's allowance for background work, shared by every loop of the process that uses it
 * (the worker's callback lanes). TurnBudget bounds one loop; this bounds many loops together. Eight lanes
 * whose partners answer within the same turn each resume with a few milliseconds of synchronous work (on
 * SQLite every statement completes at once): one after another in the same turn that adds up to tens of
 * milliseconds in which no timer fires and no request is read. With a shared allowance, the first steps of a
 * turn run, and the rest wait for the next turn, after timers and network I/O have had theirs.
 *
 * The turn is counted from the first background step that runs in it (what API requests did earlier in the
 * same turn is not known here); a step is never split, so a turn holds at most the allowance plus one step.
 */
export interface TurnSharing {
  /** Resolves at once while this turn's allowance lasts, else in a later turn. */
  take(): Promise<void>;
}

export function createTurnSharing(allowanceMs: number, now: () => number = () => performance.now(), yieldTurn: () => Promise<void> = nextTurn): TurnSharing {
  /** When the first background step of the current turn began; null when none has run in it yet. */
  let turnStartedAt: number | null = null;
  const endTurn = (): void => {
    turnStartedAt = null;
  };
  return {
    async take() {
      for (;;) {
        const at = now();
        if (turnStartedAt === null) {
          turnStartedAt = at;
          // Runs in this turn's check phase (or the next turn's when taken in a check phase), before the
          // steps that waited, so each of them finds a fresh turn.
          setImmediate(endTurn);
          return;
        }
        if (at - turnStartedAt < allowanceMs) return;
        await yieldTurn();
      }
    },
  };
}

/** The process's allowance for background lanes: about 2 ms of their steps per turn (5 ms still let 2,000 deliveries reach 50 ms of loop delay; 2 ms kept it at 38–49 ms with the same throughput). */
export const backgroundTurns: TurnSharing = createTurnSharing(2);
