import { sql } from 'kysely';
import { connectDatabase, type DbHandle } from '../../src/db/connect.js';
import type { Deps } from '../../src/deps.js';
import { enqueueJob, type EnqueueJobInput } from '../../src/db/outbox.js';
import { toJob, type Job } from '../../src/jobs/types.js';

/** Helpers shared by the jobs tests. */

export async function enqueue(deps: Deps, input: EnqueueJobInput): Promise<number> {
  const id = await enqueueJob(deps.db.db, input, deps.clock.now());
  if (id === null) throw new Error('job was deduplicated');
  return id;
}

export async function jobRow(deps: Deps, id: number): Promise<Job> {
  return toJob(await deps.db.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

export async function countJobs(deps: Deps): Promise<number> {
  const row = await deps.db.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A second connection pool on the same database (PostgreSQL: the same test database and schema), so two workers
 * really run at once; null on SQLite in memory, where a second connection would see another database.
 */
export async function secondHandle(handle: DbHandle): Promise<DbHandle | null> {
  const url = process.env.TEST_DATABASE_URL;
  if (handle.dialect !== 'postgres' || !url) return null;
  // Each test app has a database of its own in TEST_DATABASE_URL's cluster (test/helpers/app.ts).
  const { rows } = await sql<{ schema: string; database: string }>`select current_schema() as schema, current_database() as database`.execute(handle.db);
  const sameDatabase = new URL(url);
  sameDatabase.pathname = `/${rows[0]!.database}`;
  return connectDatabase({ databaseUrl: sameDatabase.toString(), sqliteFile: '', pgSchema: rows[0]!.schema, pgPoolSize: 4 });
}

/** Polls until check() holds (the background worker loop runs on real time); fails after 10 s. */
export async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
