import { AsyncLocalStorage } from 'node:async_hooks';
import { deserialize, serialize } from 'node:v8';
import type { Transaction } from 'kysely';
import type { Database } from './schema.js';

/** tx.ts's Tx, spelled out: tx.ts imports this module (withTx runs through runJournaled), never the reverse. */
type Tx = Transaction<Database>;

/**
 * Exactly-once effects for a request with an Idempotency-Key (src/http/plugins/idempotency.ts).
 *
 * The key's response is stored after the handler returns, which is after its transactions committed: a
 * crash in between leaves committed effects under a key with no response. So every transaction the
 * handler runs through withTx records, in that same transaction, that it committed and what it returned
 * (seq = the order of the withTx call within the request). A retry that takes the key over after a crash
 * runs the handler again, and withTx hands back the recorded result of a transaction that already
 * committed instead of running it: each transaction runs exactly once, and the retry builds its response
 * from the same results. Handlers need nothing special, but their withTx calls must come in the same
 * order for the same request (no Promise.all over withTx) and return plain data (objects, arrays, Dates,
 * Maps, Sets, primitives); a result that is not plain data is recorded as "committed" only, and replaying it answers 409.
 *
 * The record also fences the claim: it commits only while the key is still owned by this request, so a
 * request that was taken over (it ran longer than the takeover delay) rolls back instead of committing.
 */
export interface EffectJournal {
  tokenId: number;
  key: string;
  accountId: number;
  /** This request's claim on the key (idempotency_keys.claim_id). */
  claimId: string;
  expiresAt: string;
  /** Results of the transactions an earlier attempt committed, by seq. */
  replay: Map<number, string>;
  /** seq of the next withTx call. */
  next: number;
  /** Transactions committed or replayed by this attempt. */
  effects: number;
  /** Set once the handler has returned: later withTx calls (hooks, stray promises) are not its effects. */
  closed: boolean;
  /** The request's logger: a result that cannot be recorded is worth a developer's attention. */
  log: { warn(fields: object, message: string): void };
  /**
   * The error a refused replay or a lost claim throws: the edge's 409 (src/domain/errors.ts, conflict), handed
   * in by the idempotency plugin because db/ sits below the domain's error catalogue.
   */
  conflict(message: string): Error;
}

const storage = new AsyncLocalStorage<EffectJournal>();

let running = 0;

/**
 * Runs a keyed request's handler under its journal, and closes the journal when the handler settles.
 * While any storage is enabled Node tracks the context of every promise, a cost the hot unkeyed reads
 * should not pay: the storage is disabled again whenever no keyed handler runs (run() re-enables it).
 */
export async function runWithEffectJournal<T>(journal: EffectJournal, fn: () => T | Promise<T>): Promise<T> {
  running++;
  try {
    return await storage.run(journal, fn);
  } finally {
    journal.closed = true;
    if (--running === 0) storage.disable();
  }
}

function activeJournal(): EffectJournal | undefined {
  const journal = storage.getStore();
  return journal && !journal.closed ? journal : undefined;
}

/** Plain data survives v8 serialization as it was; a class instance would come back without its methods. */
function isPlainData(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (value === null || value === undefined) return true;
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'bigint') return true;
  if (type !== 'object') return false;
  if (value instanceof Date) return true;
  if (Array.isArray(value)) return value.every((v) => isPlainData(v, depth + 1));
  if (value instanceof Map) return [...value].every(([k, v]) => isPlainData(k, depth + 1) && isPlainData(v, depth + 1));
  if (value instanceof Set) return [...value].every((v) => isPlainData(v, depth + 1));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value as Record<string, unknown>).every((v) => isPlainData(v, depth + 1));
}

const UNRECORDED = '';

function encode(journal: EffectJournal, seq: number, result: unknown): string {
  if (isPlainData(result)) return serialize(result).toString('base64');
  journal.log.warn(
    { idempotencyKey: journal.key, seq },
    'a transaction under an Idempotency-Key returned something other than plain data: a retry after a crash cannot replay it (it answers 409)',
  );
  return UNRECORDED;
}

function decode(journal: EffectJournal, stored: string): unknown {
  if (stored === UNRECORDED) {
    throw journal.conflict(
      'this request was already applied, but its result could not be kept for replay; it was not applied again',
    );
  }
  return deserialize(Buffer.from(stored, 'base64'));
}

/** Writes the effect record inside tx; throws (rolling tx back) when another request took the key over. */
async function recordEffect(tx: Tx, journal: EffectJournal, seq: number, result: unknown): Promise<void> {
  const owned = await tx
    .updateTable('idempotency_keys')
    .set({ claim_id: journal.claimId })
    .where('token_id', '=', journal.tokenId)
    .where('idem_key', '=', journal.key)
    .where('state', '=', 'PENDING')
    .where('claim_id', '=', journal.claimId)
    .executeTakeFirst();
  if (Number(owned.numUpdatedRows) !== 1) {
    throw journal.conflict('a retry with this Idempotency-Key took the request over; this attempt changed nothing');
  }
  await tx
    .insertInto('idempotency_effects')
    .values({
      token_id: journal.tokenId,
      idem_key: journal.key,
      seq,
      account_id: journal.accountId,
      result: encode(journal, seq, result),
      expires_at: journal.expiresAt,
    })
    .execute();
}

/**
 * How withTx runs fn under a keyed request: replays a transaction an earlier attempt committed, or runs it
 * with its effect record. `run` is the plain transaction runner (retries included). Outside a keyed
 * request: run(fn).
 */
export async function runJournaled<T>(fn: (tx: Tx) => Promise<T>, run: (fn: (tx: Tx) => Promise<T>) => Promise<T>): Promise<T> {
  const journal = activeJournal();
  if (!journal) return run(fn);
  const seq = journal.next++;
  const recorded = journal.replay.get(seq);
  if (recorded !== undefined) {
    journal.effects++;
    // Recorded by encode() from this same call site's result on the earlier attempt.
    return decode(journal, recorded) as T;
  }
  const result = await run(async (tx) => {
    const value = await fn(tx);
    await recordEffect(tx, journal, seq, value);
    return value;
  });
  journal.effects++;
  return result;
}
