import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { runWithCompanions, shiftPlaceholders, writeWithCompanions } from '../../src/db/companion-writes.js';
import { isUniqueViolation } from '../../src/db/tx.js';
import { countStatements } from '../helpers/statement-counter.js';
import { withTx } from '../../src/db/tx.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('shiftPlaceholders', () => {
  it('renumbers placeholders and leaves quoted text alone', () => {
    assert.equal(shiftPlaceholders('select $1, $2 where a = $10', 3), 'select $4, $5 where a = $13');
    assert.equal(shiftPlaceholders(`select '$1', "col$2", 'it''s $3', $1`, 5), `select '$1', "col$2", 'it''s $3', $6`);
    assert.equal(shiftPlaceholders('select $1', 0), 'select $1');
  });
});

/**
 * runWithCompanions (src/db/companion-writes.ts): the companions and the main statement all take effect, in
 * the caller's transaction, and the main statement's rows come back; on PostgreSQL as one statement.
 */
describe('runWithCompanions', () => {
  let t: TestApp;
  let db: Kysely<Record<string, { id: number; label: string }>>;
  before(async () => {
    t = await createTestApp();
    db = t.deps.db.db as unknown as typeof db;
    for (const table of ['zz_main', 'zz_side_a', 'zz_side_b']) {
      await db.schema.createTable(table).addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('label', 'text', (c) => c.notNull()).execute();
    }
  });
  after(async () => t.close());

  it('writes every part and answers the main statement rows', async () => {
    const rows = await withTx(t.deps.db.db, async (tx) => {
      const q = tx as unknown as typeof db;
      return runWithCompanions(
        tx,
        q.insertInto('zz_main').values([{ id: 1, label: 'main $1' }, { id: 2, label: "it's" }]).returning(['id', 'label']).compile(),
        [q.insertInto('zz_side_a').values({ id: 7, label: 'a' }).compile(), q.insertInto('zz_side_b').values({ id: 8, label: 'b' }).compile()],
      );
    });
    assert.deepEqual(
      rows.map((r) => [Number(r.id), r.label]).sort(),
      [[1, 'main $1'], [2, "it's"]],
    );
    assert.deepEqual((await db.selectFrom('zz_side_a').selectAll().execute()).map((r) => Number(r.id)), [7]);
    assert.deepEqual((await db.selectFrom('zz_side_b').selectAll().execute()).map((r) => Number(r.id)), [8]);
  });

  it('joins a main statement of its own CTEs to the companions', async () => {
    const rows = await withTx(t.deps.db.db, async (tx) => {
      const q = tx as unknown as typeof db;
      const main = q
        .with('v(id, label)', () => sql<{ id: number; label: string }>`(values (cast(${1} as integer), cast(${'changed'} as text)))`)
        .updateTable('zz_main')
        .from('v')
        .set({ label: sql<string>`${sql.ref('v.label')}` })
        .whereRef('zz_main.id', '=', 'v.id')
        .returning('zz_main.label')
        .compile();
      return runWithCompanions(tx, main, [q.deleteFrom('zz_side_a').where('id', '=', 7).compile()]);
    });
    assert.deepEqual(rows.map((r) => r.label), ['changed']);
    assert.equal((await db.selectFrom('zz_side_a').selectAll().execute()).length, 0);
  });

  it('applies nothing when a part fails', async () => {
    await assert.rejects(
      withTx(t.deps.db.db, async (tx) => {
        const q = tx as unknown as typeof db;
        // id 8 exists in zz_side_b: the companion's insert fails, and the main statement's with it.
        return runWithCompanions(tx, q.insertInto('zz_main').values({ id: 3, label: 'x' }).returning('id').compile(), [
          q.insertInto('zz_side_b').values({ id: 8, label: 'again' }).compile(),
        ]);
      }),
    );
    assert.equal((await db.selectFrom('zz_main').select('id').where('id', '=', 3).execute()).length, 0);
  });

  it('writeWithCompanions writes every part; on PostgreSQL one statement, whose answer rides with the next', async () => {
    const counted = await countStatements(() =>
      withTx(t.deps.db.db, async (tx) => {
        const q = tx as unknown as typeof db;
        await writeWithCompanions(tx, q.insertInto('zz_main').values({ id: 20, label: 'main' }).compile(), [q.insertInto('zz_side_a').values({ id: 21, label: 'side' }).compile()]);
        // The same transaction sees both parts.
        assert.equal((await q.selectFrom('zz_side_a').select('id').where('id', '=', 21).execute()).length, 1);
      }),
    );
    assert.equal((await db.selectFrom('zz_main').select('id').where('id', '=', 20).execute()).length, 1);
    // BEGIN and the combined write go with the SELECT; then COMMIT.
    if (t.deps.db.dialect === 'postgres') assert.deepEqual([counted.statements, counted.roundTrips], [4, 2]);
  });

  it('writeWithCompanions: a failing part fails the transaction with its own error and applies nothing', async () => {
    await assert.rejects(
      withTx(t.deps.db.db, async (tx) => {
        const q = tx as unknown as typeof db;
        await writeWithCompanions(tx, q.insertInto('zz_main').values({ id: 30, label: 'x' }).compile(), [q.insertInto('zz_side_b').values({ id: 8, label: 'again' }).compile()]);
      }),
      (error: unknown) => isUniqueViolation(error),
    );
    assert.equal((await db.selectFrom('zz_main').select('id').where('id', '=', 30).execute()).length, 0);
  });
});
