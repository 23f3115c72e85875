import type { Deps } from '../../deps.js';
import type { Db } from '../../db/tx.js';
import { nextTurn } from '../../lib/next-turn.js';

export const IDEMPOTENCY_SWEEP = 'idempotency.sweep';

/**
 * Rows per DELETE: short statements keep the SQLite write lock brief for the API beside the worker, and the
 * event loop gets a turn after each (on SQLite a statement runs on the loop; without the turns a backlog of
 * keys would be deleted in one stretch).
 */
const BATCH = 1000;

/**
 * Deletes idempotency keys whose expires_at has passed (src/http/plugins/idempotency.ts keeps them 24 h;
 * an expired key is already ignored there, so deleting it changes no answer). Returns how many went.
 */
export async function deleteExpiredIdempotencyKeys(db: Db, now: Date): Promise<number> {
  const nowIso = now.toISOString();
  let total = 0;
  for (;;) {
    // Each batch commits on its own: nothing here needs to be all-or-nothing.
    const result = await db
      .deleteFrom('idempotency_keys')
      .where((eb) =>
        eb(
          eb.refTuple('token_id', 'idem_key'),
          'in',
          eb
            .selectFrom('idempotency_keys')
            .select(['token_id', 'idem_key'])
            .where('expires_at', '<=', nowIso)
            .limit(BATCH)
            .$asTuple('token_id', 'idem_key'),
        ),
      )
      .where('expires_at', '<=', nowIso)
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    total += deleted;
    await nextTurn();
    if (deleted < BATCH) return total;
  }
}

/**
 * Effect records (src/db/effect-journal.ts) normally go when their key's response is stored; those of a
 * request that crashed or failed and was never retried expire with their key.
 */
export async function deleteExpiredIdempotencyEffects(db: Db, now: Date): Promise<number> {
  const nowIso = now.toISOString();
  let total = 0;
  for (;;) {
    const result = await db
      .deleteFrom('idempotency_effects')
      .where((eb) =>
        eb(
          eb.refTuple('token_id', 'idem_key', 'seq'),
          'in',
          eb
            .selectFrom('idempotency_effects')
            .select(['token_id', 'idem_key', 'seq'])
            .where('expires_at', '<=', nowIso)
            .limit(BATCH)
            .$asTuple('token_id', 'idem_key', 'seq'),
        ),
      )
      .where('expires_at', '<=', nowIso)
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    total += deleted;
    await nextTurn();
    if (deleted < BATCH) return total;
  }
}

export async function sweepIdempotencyKeys(deps: Deps): Promise<void> {
  const deleted = await deleteExpiredIdempotencyKeys(deps.db.db, deps.clock.now());
  const effects = await deleteExpiredIdempotencyEffects(deps.db.db, deps.clock.now());
  if (effects > 0) deps.log.info({ deleted: effects }, 'deleted expired idempotency effect records');
  if (deleted > 0) deps.log.info({ deleted }, 'deleted expired idempotency keys');
}

