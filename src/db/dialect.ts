import { PostgresAdapter } from 'kysely';
import type { Db } from './tx.js';

/** Whether `db` (a transaction included) runs on PostgreSQL: for the few statements written per dialect. */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
