import { sql } from 'kysely';
import { cappedCount } from '../db/capped-count.js';
import type { Db } from '../db/tx.js';

/**
 * How many of an account's background jobs gave up (DEAD: every attempt failed), up to COUNT_CAP + 1: the
 * seller's home shows it; the operator retries them from the Jobs page. Reads jobs_account_dead (032), which
 * holds only DEAD jobs; the status is a literal so SQLite can prove the query implies the index's condition.
 */
export function countAccountDeadJobs(db: Db, accountId: number): Promise<number> {
  return cappedCount(db, db.selectFrom('jobs').select('id').where('account_id', '=', accountId).where('status', '=', sql.lit('DEAD')));
}
