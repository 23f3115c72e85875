import { sql } from 'kysely';
import type { Db } from './tx.js';

/**
 * Runs `fn` inside a savepoint of the current transaction (SQLite and PostgreSQL alike) and keeps its
 * writes only when `keep(result)` is true; otherwise they are rolled back and the transaction goes on.
 * For batch work where one entry's late failure (a conditional update that matched nothing) must undo that
 * entry's earlier writes without losing the others'. A thrown error also rolls back the savepoint.
 */
export async function inSavepoint<T>(tx: Db, fn: () => Promise<T>, keep: (result: T) => boolean): Promise<T> {
  await sql`savepoint entry`.execute(tx);
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    await sql`rollback to savepoint entry`.execute(tx);
    await sql`release savepoint entry`.execute(tx);
    throw error;
  }
  if (!keep(result)) await sql`rollback to savepoint entry`.execute(tx);
  await sql`release savepoint entry`.execute(tx);
  return result;
}
