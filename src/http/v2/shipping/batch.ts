import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../../deps.js';
import { isUniqueViolation, withTx, type Tx } from '../../../db/tx.js';
import { isDatabaseUnavailable } from '../../../db/unavailable.js';
import { isAppError } from '../../../domain/errors.js';

export type EntryOutcome<T> = { ok: true; value: T } | { ok: false; errorMessage: string };

/**
 * Runs one batch entry in its own transaction (document 7.3 rule 2): an entry that fails rolls back only
 * itself and answers success false with the domain's message; an unexpected error is logged and answered
 * with a fixed message so no internal detail leaks. A lost database fails the call (503, retry it), as
 * everywhere else, rather than answering 200 with every later entry failed: the entries before it stay
 * applied, and the contract makes a repeat of an applied shipment, acknowledgement, rejection or
 * confirmation succeed as a repeat.
 */
export async function runEntry<T>(deps: Deps, log: FastifyBaseLogger, fn: (tx: Tx) => Promise<T>): Promise<EntryOutcome<T>> {
  try {
    return { ok: true, value: await withTx(deps.db.db, fn) };
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    if (isAppError(error)) return { ok: false, errorMessage: error.message };
    // A parallel request claimed the same unique value first (e.g. one externalOrderId on two orders).
    if (isUniqueViolation(error)) return { ok: false, errorMessage: 'a concurrent request changed the same data first; read the order again before retrying' };
    log.error({ err: error }, 'v2 shipping batch entry failed');
    return { ok: false, errorMessage: 'internal error applying this entry; retry it, quoting X-Request-Id if it persists' };
  }
}

/** proto3 JSON input: the camelCase name wins over its snake_case alias; null counts as absent. */
export function pick<T>(camel: T | null | undefined, snake: T | null | undefined): T | null {
  return camel ?? snake ?? null;
}

/** The id as the partner sent it, for echoing in results. */
export function echoId(raw: unknown): string {
  return typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
}
