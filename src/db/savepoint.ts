import { CompiledQuery } from 'kysely';
import type { Db } from './tx.js';

// Fixed texts: run as compiled queries (no query building per batch entry).
const SAVEPOINT = CompiledQuery.raw('savepoint entry');
const ROLLBACK_TO = CompiledQuery.raw('rollback to savepoint entry');
const RELEASE = CompiledQuery.raw('release savepoint entry');

/**
 * Runs `fn` inside a savepoint of the current transaction (SQLite and PostgreSQL alike) and keeps its
 * writes only when `keep(result)` is true; otherwise they are rolled back and the transaction goes on.
 * For batch work where one entry's late failure (a conditional update that matched nothing) must undo that
 * entry's earlier writes without losing the others'. A thrown error also rolls back the savepoint.
 */
export async function inSavepoint<T>(tx: Db, fn: () => Promise<T>, keep: (result: T) => boolean): Promise<T> {
  await tx.executeQuery(SAVEPOINT);
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    await tx.executeQuery(ROLLBACK_TO);
    await tx.executeQuery(RELEASE);
    throw error;
  }
  if (!keep(result)) await tx.executeQuery(ROLLBACK_TO);
  await tx.executeQuery(RELEASE);
  return result;
}
