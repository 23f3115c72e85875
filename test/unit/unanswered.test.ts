import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { savepointAhead } from '../../src/db/savepoint.js';
import { isUniqueViolation, withTx } from '../../src/db/tx.js';
import { readAhead, readTogether, sendWithoutWaiting, withOneConnection } from '../../src/db/unanswered.js';
import { selectRows } from '../../src/db/raw-rows.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { countStatements } from '../helpers/statement-counter.js';

/**
 * Statements not waited for (src/db/unanswered.ts, src/db/pg-client.ts): on PostgreSQL a BEGIN, a write sent
 * with sendWithoutWaiting and a read sent with readAhead ride with the next statement that waits; the
 * transaction must see exactly what it would have seen had each been awaited, failures included. On SQLite
 * they simply run, so the same expectations hold.
 */
describe('statements not waited for', () => {
  let t: TestApp;
  let db: Kysely<Record<string, { id: number; label: string }>>;
  const postgres = () => t.deps.db.dialect === 'postgres';
  before(async () => {
    t = await createTestApp();
    db = t.deps.db.db as unknown as typeof db;
    for (const table of ['zz_items', 'zz_log']) {
      await db.schema.createTable(table).addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('label', 'text', (c) => c.notNull()).execute();
    }
    await db.insertInto('zz_items').values({ id: 1, label: 'one' }).execute();
  });
  after(async () => t.close());

  const labels = async (table: string) => (await db.selectFrom(table).select(['id', 'label']).orderBy('id').execute()).map((r) => `${Number(r.id)}:${r.label}`);

  it('writes not waited for take effect in order, and reads sent ahead answer what was there when sent', async () => {
    const counted = await countStatements(() =>
      withTx(t.deps.db.db, async (tx) => {
        const q = tx as unknown as typeof db;
        const before = await readAhead(tx, q.selectFrom('zz_items').select(['id', 'label']).orderBy('id').compile());
        await sendWithoutWaiting(tx, q.insertInto('zz_items').values({ id: 2, label: 'two' }).compile());
        await sendWithoutWaiting(tx, q.updateTable('zz_items').set({ label: 'TWO' }).where('id', '=', 2).compile());
        const after = await q.selectFrom('zz_items').select(['id', 'label']).orderBy('id').execute();
        assert.deepEqual((await before()).map((r) => Number(r.id)), [1], 'the read ran before the writes sent after it');
        assert.deepEqual(after.map((r) => `${Number(r.id)}:${r.label}`), ['1:one', '2:TWO']);
      }),
    );
    assert.deepEqual(await labels('zz_items'), ['1:one', '2:TWO']);
    // BEGIN, the read ahead and both writes go with the SELECT: two round trips, that one and COMMIT.
    if (postgres()) assert.deepEqual([counted.statements, counted.roundTrips], [6, 2]);
  });

  it('a failed write not waited for fails the next statement with its own error, and nothing is kept', async () => {
    await assert.rejects(
      withTx(t.deps.db.db, async (tx) => {
        const q = tx as unknown as typeof db;
        await q.insertInto('zz_log').values({ id: 10, label: 'kept?' }).execute();
        await sendWithoutWaiting(tx, q.insertInto('zz_items').values({ id: 1, label: 'duplicate' }).compile());
        await q.selectFrom('zz_items').select('id').execute();
      }),
      (error: unknown) => isUniqueViolation(error),
    );
    assert.deepEqual(await labels('zz_log'), []);
    assert.deepEqual(await labels('zz_items'), ['1:one', '2:TWO']);
  });

  it('a failed write not waited for right before the COMMIT fails the COMMIT: nothing is committed', async () => {
    await assert.rejects(
      withTx(t.deps.db.db, async (tx) => {
        const q = tx as unknown as typeof db;
        await q.insertInto('zz_log').values({ id: 11, label: 'kept?' }).execute();
        await sendWithoutWaiting(tx, q.insertInto('zz_items').values({ id: 2, label: 'duplicate' }).compile());
      }),
      (error: unknown) => isUniqueViolation(error),
    );
    assert.deepEqual(await labels('zz_log'), []);
  });

  it('a failed read sent ahead rejects where its answer is taken, and the statement after it fails too', async () => {
    await assert.rejects(
      withTx(t.deps.db.db, async (tx) => {
        const answer = await readAhead(tx, CompiledQuery.raw('select id from zz_missing_table'));
        await assert.rejects(answer());
        await (tx as unknown as typeof db).selectFrom('zz_items').select('id').execute();
      }),
    );
    // The connection is clean again: the next transaction works.
    const rows = await withTx(t.deps.db.db, async (tx) => (tx as unknown as typeof db).selectFrom('zz_items').select('id').execute());
    assert.equal(rows.length, 2);
  });

  it('a read sent ahead behind a failed write answers the error of that write, not "transaction aborted" (so a retry sees a deadlock)', async () => {
    await assert.rejects(
      withTx(t.deps.db.db, async (tx) => {
        const q = tx as unknown as typeof db;
        await sendWithoutWaiting(tx, q.insertInto('zz_items').values({ id: 1, label: 'duplicate' }).compile());
        const answer = await readAhead(tx, q.selectFrom('zz_items').select('id').compile());
        // Taken with no waited statement in between: its own error on PostgreSQL would be 25P02.
        await answer();
      }),
      (error: unknown) => isUniqueViolation(error),
    );
  });

  it('savepointAhead: undo() rolls back what was sent after it, the transaction goes on, and the rest is kept', async () => {
    const counted = await countStatements(() =>
      withTx(t.deps.db.db, async (tx) => {
        const q = tx as unknown as typeof db;
        await sendWithoutWaiting(tx, q.insertInto('zz_log').values({ id: 20, label: 'before' }).compile());
        const attempt = await savepointAhead(tx);
        await sendWithoutWaiting(tx, q.insertInto('zz_log').values({ id: 21, label: 'attempt' }).compile());
        const seen = await readAhead(tx, q.selectFrom('zz_log').select('id').where('id', '>=', 20).orderBy('id').compile());
        assert.deepEqual((await seen()).map((r) => Number(r.id)), [20, 21]);
        await attempt.undo();
        await q.insertInto('zz_log').values({ id: 22, label: 'after' }).execute();
      }),
    );
    assert.deepEqual((await labels('zz_log')).filter((l) => Number(l.split(':')[0]) >= 20), ['20:before', '22:after']);
    await db.deleteFrom('zz_log').where('id', '>=', 20).execute();
    // BEGIN, the write, SAVEPOINT, the write and the read share the first round trip; then the rollback to the
    // savepoint, the insert and COMMIT.
    if (postgres()) assert.equal(counted.roundTrips, 4);
  });

  it('savepointAhead: undo() releases the row locks taken after it (PostgreSQL), so another transaction need not wait', async (ctx) => {
    if (!postgres()) return ctx.skip('SQLite has one writer at a time: no row locks');
    await withTx(t.deps.db.db, async (tx) => {
      const q = tx as unknown as typeof db;
      const attempt = await savepointAhead(tx);
      await q.updateTable('zz_items').set({ label: 'locked' }).where('id', '=', 1).execute();
      await attempt.undo();
      // Another connection updates the row at once; with the lock still held it would wait out lock_timeout.
      await withTx(t.deps.db.db, async (other) => {
        await sql`set local lock_timeout = '2s'`.execute(other);
        await (other as unknown as typeof db).updateTable('zz_items').set({ label: 'one' }).where('id', '=', 1).execute();
      });
    });
    assert.deepEqual((await labels('zz_items')).slice(0, 1), ['1:one']);
  });

  it('an error thrown by the caller after a write not waited for rolls back without a second error', async () => {
    await assert.rejects(
      withTx(t.deps.db.db, async (tx) => {
        const q = tx as unknown as typeof db;
        await sendWithoutWaiting(tx, q.insertInto('zz_log').values({ id: 12, label: 'rolled back' }).compile());
        throw new Error('the caller changed its mind');
      }),
      /the caller changed its mind/,
    );
    assert.deepEqual(await labels('zz_log'), []);
  });

  it('parallel transactions each see their own writes', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        withTx(t.deps.db.db, async (tx) => {
          const q = tx as unknown as typeof db;
          await sendWithoutWaiting(tx, q.insertInto('zz_log').values({ id: 100 + i, label: `tx ${i}` }).compile());
          const mine = await q.selectFrom('zz_log').select('label').where('id', '=', 100 + i).executeTakeFirst();
          assert.equal(mine?.label, `tx ${i}`);
        }),
      ),
    );
    assert.equal((await labels('zz_log')).length, 12);
  });

  it('rows built from arrays (selectRows, readTogether) are the rows Kysely answers, nulls, numbers and repeated names included', async () => {
    await db.insertInto('zz_items').values({ id: 3, label: 'it\'s "three"' }).execute();
    const query = CompiledQuery.raw('select id, label, null as empty, id * 2 as twice, label as id from zz_items order by twice');
    const expected = (await db.executeQuery(query)).rows;
    assert.equal(expected.length, 3);
    assert.deepEqual(await selectRows(t.deps.db.db, t.deps.db, query), expected);
    const together = await withOneConnection(t.deps.db.db, (one) => readTogether(one, [query, query] as const));
    assert.deepEqual(together, [expected, expected]);
    const inTx = await withTx(t.deps.db.db, (tx) => readTogether(tx, [query, CompiledQuery.raw('select count(*) as n from zz_items')] as const));
    assert.deepEqual(inTx[0], expected);
    assert.equal(Number((inTx[1][0] as { n: unknown }).n), 3);
  });
});
