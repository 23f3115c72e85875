import { internalError } from '../errors.js';

/**
 * A status machine as data: from each status, the statuses it may move to (none: the status is final).
 * Reports (report-status.ts) and import validations (validation/validation-status.ts) each have one, and
 * each has one writer that every status change goes through.
 */
export type TransitionTable<S extends string> = Readonly<Record<S, readonly S[]>>;

/** A status change as a writer is asked for it. */
export interface StatusMove<S extends string> {
  /** The status the row must still have (or any of several) for the move to happen. */
  from: S | readonly S[];
  to: S;
  /** Move only while the run's checkpoint (lines_done) is still here, so a run another has overtaken does not end the row. */
  atLinesDone?: number;
}

export function canMove<S extends string>(table: TransitionTable<S>, from: S, to: S): boolean {
  return table[from].includes(to);
}

/** The statuses a row may move to `to` from, in the table's order (what a refusal names as allowed). */
export function sourcesOf<S extends string>(table: TransitionTable<S>, to: S): S[] {
  return (Object.keys(table) as S[]).filter((from) => canMove(table, from, to));
}

/**
 * Checks a move before it is written, from each status it may start from; answers those statuses. No
 * request or stored data can ask for a move the table forbids, so one is a bug in the caller: INTERNAL,
 * not a refusal. (Whether the row still has `from` when the write lands is a race, answered by the write.)
 */
export function checkMove<S extends string>(what: string, table: TransitionTable<S>, move: StatusMove<S>): readonly S[] {
  const froms: readonly S[] = typeof move.from === 'string' ? [move.from] : move.from;
  if (froms.length === 0) throw internalError(`${what} status move to ${move.to} names no status to move from`);
  for (const from of froms) {
    if (!canMove(table, from, move.to)) throw internalError(`${what} status cannot move from ${from} to ${move.to}`);
  }
  return froms;
}
