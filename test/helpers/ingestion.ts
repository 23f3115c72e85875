import assert from 'node:assert/strict';
import type { Deps } from '../../src/deps.js';

/**
 * The id of the ingestion session a `POST …/ingestion/begin` just opened. The answer is `{}`, as the
 * production message (resolutions §7, third review), so the id is read where the operator API reads it: the
 * newest session of the database (tests open sessions one at a time).
 */
export async function idOfBegun(t: { deps: Pick<Deps, 'db'> }, answer: Promise<unknown>): Promise<number> {
  assert.deepEqual(await answer, {}, 'BeginIngestion answers {}');
  const row = await t.deps.db.db.selectFrom('ingestion_sessions').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  return row.id;
}
