import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountFilterById } from '../../src/db/tenancy.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount } from '../helpers/fixtures.js';

/**
 * accountFilterById (src/db/tenancy.ts): a lookup of rows by id within an account. It must keep the tenancy
 * check (another account's ids find nothing) and, on SQLite without statistics, fetch the rows by id instead
 * of walking the account through an account-led index (the retention sweep's 14 ms reads at 100,000 orders,
 * bench/RESULTS.md "Personal data benchmark notes").
 */
describe('id lookups within an account', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await t.close();
  });

  it('finds only the rows of the account named', async () => {
    const mine = await seedAccount(t, 'Mine');
    const theirs = await seedAccount(t, 'Theirs');
    const ids = [mine.warehouses.main, mine.warehouses.second, theirs.warehouses.main];
    const found = await t.deps.db.db.selectFrom('warehouses').select('id').where(accountFilterById(mine.accountId)).where('id', 'in', ids).orderBy('id').execute();
    assert.deepEqual(
      found.map((r) => Number(r.id)),
      [mine.warehouses.main, mine.warehouses.second].sort((x, y) => x - y),
    );
  });

  it('plans a lookup by primary key on SQLite, where account_id = ? would walk an account index', (ctx) => {
    const raw = t.deps.db.raw;
    if (!('sqlite' in raw)) {
      ctx.skip('SQLite planner without statistics');
      return;
    }
    const ids = Array.from({ length: 25 }, (_, i) => i + 1);
    const plan = (where: 'filter' | 'plain') => {
      let query = t.deps.db.db.selectFrom('sales_orders').select(['id', 'shipping_address']);
      query = where === 'filter' ? query.where(accountFilterById(1)) : query.where('account_id', '=', 1);
      const compiled = query.where('id', 'in', ids).compile();
      const rows = raw.sqlite.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[])) as { detail: string }[];
      return rows.map((r) => r.detail).join('; ');
    };
    assert.match(plan('filter'), /SEARCH sales_orders USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    // What the filter avoids (so this test fails if SQLite stops preferring the account index).
    assert.match(plan('plain'), /USING (COVERING )?INDEX sales_orders_/);
  });
});
