import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { connectDatabase, type DbHandle } from '../../src/db/connect.js';
import { withTx, type Db } from '../../src/db/tx.js';

/**
 * SQLite group commit (src/db/group-commit.ts): transactions that finish in the same turn share a COMMIT,
 * each keeps its own atomicity, nobody is told "committed" before the COMMIT, and reads outside a
 * transaction never see uncommitted writes. Run on a file (two connections) and in memory (one).
 */
const dir = mkdtempSync(path.join(tmpdir(), 'group-commit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
async function open(kind: 'file' | 'memory'): Promise<{ handle: DbHandle; db: Kysely<Record<string, { id: number; v: string }>>; file: string | null }> {
  const file = kind === 'file' ? path.join(dir, `db-${++files}.sqlite`) : null;
  const handle = connectDatabase({ databaseUrl: null, sqliteFile: file ?? ':memory:' });
  const db = handle.db as unknown as Kysely<Record<string, { id: number; v: string }>>;
  await sql`create table t (id integer primary key, v text not null unique)`.execute(db);
  await sql`create table parent (id integer primary key)`.execute(db);
  await sql`create table child (id integer primary key, parent_id integer references parent (id) deferrable initially deferred)`.execute(db);
  return { handle, db, file };
}

const values = async (db: Kysely<Record<string, { id: number; v: string }>>) =>
  (await db.selectFrom('t').select('v').orderBy('v').execute()).map((r) => r.v);

const insert = (tx: Db | Kysely<Record<string, { id: number; v: string }>>, v: string) => sql`insert into t (v) values (${v})`.execute(tx as Db);

/** A transaction held open after `write`: `wrote` resolves once it has written, `release` lets it end. */
function heldOpen<T>(run: (body: (tx: Db) => Promise<void>) => Promise<T>, write: (tx: Db) => Promise<unknown>) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let written!: () => void;
  const wrote = new Promise<void>((resolve) => (written = resolve));
  const done = run(async (tx) => {
    await write(tx);
    written();
    await gate;
  });
  return { wrote, release, done };
}

for (const kind of ['file', 'memory'] as const) {
  describe(`SQLite group commit (${kind})`, () => {
    it('transactions that run at the same time share COMMITs, and each is committed when its caller hears so', async () => {
      const { handle, db, file } = await open(kind);
      try {
        const before = { ...handle.groupCommit! };
        const outside = file ? new SQLite(file, { readonly: true }) : null;
        const seen: boolean[] = [];
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            withTx(handle.db, async (tx) => {
              await insert(tx, `v${String(i).padStart(2, '0')}`);
              await insert(tx, `w${String(i).padStart(2, '0')}`);
            }).then(() => {
              // Committed means committed: another connection sees both rows the moment withTx resolves.
              if (outside) seen.push((outside.prepare('select count(*) as n from t where v in (?, ?)').get(`v${String(i).padStart(2, '0')}`, `w${String(i).padStart(2, '0')}`) as { n: number }).n === 2);
            }),
          ),
        );
        outside?.close();
        assert.equal((await values(db)).length, 40);
        assert.ok(seen.every(Boolean));
        const stats = handle.groupCommit!;
        assert.equal(stats.members - before.members, 20);
        assert.ok(stats.commits - before.commits < 20, `20 transactions took ${stats.commits - before.commits} COMMITs`);
      } finally {
        await handle.close();
      }
    });

    it("a failing transaction undoes only its own writes; the others in its group commit", async () => {
      const { handle, db } = await open(kind);
      try {
        const results = await Promise.allSettled(
          Array.from({ length: 6 }, (_, i) =>
            withTx(handle.db, async (tx) => {
              await insert(tx, `a${i}`);
              if (i === 2) throw new Error('domain failure');
              // A constraint failure inside a transaction is caught by it and the transaction goes on.
              if (i === 4) await assert.rejects(insert(tx, 'a0'));
              await insert(tx, `b${i}`);
            }),
          ),
        );
        assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
        assert.deepEqual(await values(db), ['a0', 'a1', 'a3', 'a4', 'a5', 'b0', 'b1', 'b3', 'b4', 'b5']);
      } finally {
        await handle.close();
      }
    });

    it('a read outside a transaction never sees a transaction that has not committed', async () => {
      const { handle, db } = await open(kind);
      try {
        const { wrote, release, done: open } = heldOpen((body) => withTx(handle.db, body), (tx) => insert(tx, 'pending'));
        await wrote;
        if (kind === 'file') {
          // The read connection answers at once, from committed data.
          assert.deepEqual(await values(db), []);
          release();
        } else {
          // One connection: the read waits for the transaction, then sees it committed.
          const read = values(db);
          release();
          assert.deepEqual(await read, ['pending']);
        }
        await open;
        assert.deepEqual(await values(db), ['pending']);
      } finally {
        await handle.close();
      }
    });

    it('a write outside a transaction never joins a group: it commits alone, after the group, and survives its failure', async () => {
      const { handle, db } = await open(kind);
      try {
        // The member's orphan (deferred foreign key) will break the COMMIT of its group.
        const { wrote, release, done: member } = heldOpen(
          (body) => db.transaction().execute((tx) => body(tx as unknown as Db)),
          async (tx) => {
            await sql`insert into child (parent_id) values (44)`.execute(tx);
            await insert(tx, 'member');
          },
        );
        await wrote;
        // Waits for the connection, finds the member's group open, commits it (which fails), then runs.
        const outside = insert(db, 'outside');
        release();
        const [memberResult, outsideResult] = await Promise.allSettled([member, outside]);
        assert.equal(memberResult.status, 'rejected');
        assert.equal(outsideResult.status, 'fulfilled');
        assert.deepEqual(await values(db), ['outside']);
      } finally {
        await handle.close();
      }
    });

    it('when the shared COMMIT fails, the group is undone, and withTx runs its transactions again so only the faulty one fails', async () => {
      const { handle, db } = await open(kind);
      try {
        // A deferred foreign key is checked at COMMIT: the orphan breaks the COMMIT its group shares.
        const results = await Promise.allSettled([
          withTx(handle.db, (tx) => insert(tx, 'x1')),
          withTx(handle.db, (tx) => sql`insert into child (parent_id) values (42)`.execute(tx)),
          withTx(handle.db, (tx) => insert(tx, 'x2')),
        ]);
        assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
        assert.equal(((results[1] as PromiseRejectedResult).reason as { code?: string }).code, 'SQLITE_CONSTRAINT_FOREIGNKEY');
        assert.deepEqual(await values(db), ['x1', 'x2']);
        assert.equal(Number((await sql<{ n: number }>`select count(*) as n from child`.execute(db)).rows[0]!.n), 0);
      } finally {
        await handle.close();
      }
    });

    it('without withTx, every transaction of a failed group is told so with a retryable error', async () => {
      const { handle, db } = await open(kind);
      try {
        const results = await Promise.allSettled([
          db.transaction().execute((tx) => insert(tx, 'y1')),
          db.transaction().execute((tx) => sql`insert into child (parent_id) values (43)`.execute(tx)),
        ]);
        const codes = results.map((r) => (r.status === 'rejected' ? ((r.reason as { code?: string }).code ?? 'none') : 'fulfilled'));
        assert.ok(codes.every((c) => c === 'GROUP_COMMIT_ABORTED' || c === 'SQLITE_CONSTRAINT_FOREIGNKEY'), codes.join());
        assert.deepEqual(await values(db), []);
      } finally {
        await handle.close();
      }
    });
  });
}
