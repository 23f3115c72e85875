import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { inEntrySavepoint, type EntryResult } from '../../src/db/entry-savepoint.js';
import { isUniqueViolation, withTx, type Tx } from '../../src/db/tx.js';
import { sendWithoutWaiting } from '../../src/db/unanswered.js';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { nudgeSubscribers } from '../../src/domain/callbacks/nudges.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { countStatements } from '../helpers/statement-counter.js';

/**
 * Batch entries in savepoints of one transaction (src/db/entry-savepoint.ts): a failed entry is rolled back
 * alone and the transaction goes on, whichever statement reports the failure: the entry's own, the RELEASE
 * after it (a write not waited for, src/db/unanswered.ts), or the rollback itself (a write not waited for
 * still unanswered when the entry failed in JavaScript). Failures that end the transaction are thrown.
 * On SQLite a write "not waited for" simply runs, so the same expectations hold.
 */
describe('batch entries in savepoints', () => {
  let t: TestApp;
  let db: Kysely<Record<string, { id: number; label: string }>>;
  const postgres = () => t.deps.db.dialect === 'postgres';
  const q = (tx: Tx) => tx as unknown as typeof db;
  before(async () => {
    t = await createTestApp();
    db = t.deps.db.db as unknown as typeof db;
    await db.schema.createTable('zz_rows').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('label', 'text', (c) => c.notNull()).execute();
  });
  beforeEach(async () => {
    await db.deleteFrom('zz_rows').execute();
    await db.insertInto('zz_rows').values({ id: 1, label: 'there before' }).execute();
  });
  after(async () => t.close());

  const ids = async () => (await db.selectFrom('zz_rows').select('id').orderBy('id').execute()).map((r) => Number(r.id));
  const insert = (tx: Tx, id: number) => q(tx).insertInto('zz_rows').values({ id, label: `row ${id}` }).execute();
  const insertUnwaited = (tx: Tx, id: number) => sendWithoutWaiting(tx, q(tx).insertInto('zz_rows').values({ id, label: `row ${id}` }).compile());
  const failed = (result: EntryResult<unknown>) => (result.ok ? null : result.error);

  it('keeps the entries that succeed and rolls back the one that fails, writes included', async () => {
    const results = await withTx(t.deps.db.db, async (tx) => [
      await inEntrySavepoint(tx, async () => (await insert(tx, 10), 'ten')),
      await inEntrySavepoint(tx, async () => {
        await insert(tx, 20);
        throw new Error('entry 20 changed its mind');
      }),
      await inEntrySavepoint(tx, async () => (await insert(tx, 30), 'thirty')),
    ]);
    assert.deepEqual(results[0], { ok: true, value: 'ten' });
    assert.match(String(failed(results[1]!)), /entry 20 changed its mind/);
    assert.deepEqual(results[2], { ok: true, value: 'thirty' });
    assert.deepEqual(await ids(), [1, 10, 30]);
  });

  it('a unique violation of a waited statement fails that entry only', async () => {
    const results = await withTx(t.deps.db.db, async (tx) => [
      await inEntrySavepoint(tx, async () => {
        await insert(tx, 11);
        await insert(tx, 1);
      }),
      await inEntrySavepoint(tx, () => insert(tx, 12)),
    ]);
    assert.ok(isUniqueViolation(failed(results[0]!)), String(failed(results[0]!)));
    assert.equal(results[1]!.ok, true);
    assert.deepEqual(await ids(), [1, 12]);
  });

  it('a failure of a write not waited for, reported at the RELEASE, rolls back that entry only', async () => {
    const results = await withTx(t.deps.db.db, async (tx) => [
      await inEntrySavepoint(tx, async () => {
        await insert(tx, 21);
        // The entry's last write: on PostgreSQL nothing waits after it but the RELEASE.
        await insertUnwaited(tx, 1);
        return 'looked fine';
      }),
      await inEntrySavepoint(tx, () => insert(tx, 22)),
    ]);
    assert.ok(isUniqueViolation(failed(results[0]!)), String(failed(results[0]!)));
    assert.equal(results[1]!.ok, true);
    assert.deepEqual(await ids(), [1, 22]);
  });

  it('a failure of a write not waited for, still unanswered when the entry fails in JavaScript, rolls back that entry only', async () => {
    const results = await withTx(t.deps.db.db, async (tx) => [
      await inEntrySavepoint(tx, async () => {
        await insert(tx, 23);
        await insertUnwaited(tx, 1);
        throw new Error('a check failed');
      }),
      await inEntrySavepoint(tx, () => insert(tx, 24)),
    ]);
    // PostgreSQL reports the write's failure at the rollback: the entry answers its own error. SQLite ran the
    // write at once, and it failed there.
    const error = failed(results[0]!);
    if (postgres()) assert.match(String(error), /a check failed/);
    else assert.ok(isUniqueViolation(error), String(error));
    assert.equal(results[1]!.ok, true);
    assert.deepEqual(await ids(), [1, 24]);
  });

  it('a deadlock or serialization failure is thrown, and withTx runs every entry again from the start', async () => {
    let attempts = 0;
    const results = await withTx(t.deps.db.db, async (tx) => {
      attempts += 1;
      const attempt = attempts;
      const out: EntryResult<number>[] = [];
      for (const id of [40, 41, 42]) {
        out.push(
          await inEntrySavepoint(tx, async () => {
            await insert(tx, id);
            if (attempt === 1 && id === 41) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
            return attempt;
          }),
        );
      }
      return out;
    });
    assert.equal(attempts, 2);
    // Every outcome is the second attempt's; nothing of the first was kept.
    assert.deepEqual(results, [40, 41, 42].map(() => ({ ok: true, value: 2 })));
    assert.deepEqual(await ids(), [1, 40, 41, 42]);
  });

  it('a lost database is thrown: the whole transaction fails and nothing is kept', async () => {
    await assert.rejects(
      withTx(t.deps.db.db, async (tx) => {
        await inEntrySavepoint(tx, () => insert(tx, 50));
        await inEntrySavepoint(tx, async () => {
          await insert(tx, 51);
          throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
        });
      }),
      (error: unknown) => isDatabaseUnavailable(error),
    );
    assert.deepEqual(await ids(), [1]);
  });

  it('an entry that cannot be rolled back (the transaction failed before it) fails the whole transaction', async (ctx) => {
    if (!postgres()) return ctx.skip('SQLite runs a write not waited for at once: its failure never reaches the entry');
    await assert.rejects(
      withTx(t.deps.db.db, async (tx) => {
        await insert(tx, 60);
        await insertUnwaited(tx, 1);
        await inEntrySavepoint(tx, () => insert(tx, 61));
      }),
      (error: unknown) => error instanceof AggregateError && isUniqueViolation(error.errors[0]),
    );
    assert.deepEqual(await ids(), [1]);
  });

  it('a lookup cached for the transaction that failed with a rolled-back entry is looked up again by the next entry', async () => {
    const results = await withTx(t.deps.db.db, async (tx) => [
      await inEntrySavepoint(tx, async () => {
        await insertUnwaited(tx, 1);
        // On PostgreSQL the cached subscriber lookup (src/domain/callbacks/nudges.ts) reports the insert's failure.
        return nudgeSubscribers(tx, 999_999, 'FULFILLMENT_ORDER_CHANGED');
      }),
      await inEntrySavepoint(tx, () => nudgeSubscribers(tx, 999_999, 'FULFILLMENT_ORDER_CHANGED')),
    ]);
    assert.ok(isUniqueViolation(failed(results[0]!)), String(failed(results[0]!)));
    assert.deepEqual(results[1], { ok: true, value: new Map() });
  });

  it('costs one waited RELEASE per entry on PostgreSQL: its SAVEPOINT rides with the entry\'s first statement', async () => {
    const counted = await countStatements(() =>
      withTx(t.deps.db.db, async (tx) => {
        for (const id of [70, 71, 72]) await inEntrySavepoint(tx, () => insert(tx, id));
      }),
    );
    assert.deepEqual(await ids(), [1, 70, 71, 72]);
    // BEGIN, then per entry SAVEPOINT, INSERT and RELEASE, then COMMIT; waited for: the INSERT and the RELEASE
    // of each entry, and the COMMIT.
    if (postgres()) assert.deepEqual([counted.statements, counted.roundTrips], [11, 7]);
  });
});
