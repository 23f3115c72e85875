import assert from 'node:assert/strict';
import { Decimal } from 'decimal.js';
import { after, before, describe, it } from 'node:test';
import { backfillOrderDayFigures } from '../../src/db/migrations/033_order_day_figures.js';
import { SALES_SCALE } from '../../src/domain/orders/order-day-figures.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

/**
 * The home chart's rollup (src/domain/orders/order-day-figures.ts, migration 033) through the console page:
 * kept by order creation and by cancellation, exact under parallel creation, and right for any time zone the
 * operator sets afterwards (whole-hour, half-hour and 45-minute offsets, summer time).
 */

const PASSWORD = 'correct horse battery';
const NOW = new Date('2026-11-23T09:00:00.000Z');

/** The page's "Figures by day" table: day → [orders, sales as shown]. */
function dayRows(body: string): Map<string, [number, string]> {
  const rows = [...body.matchAll(/<tr data-day="([\d-]+)"><th scope="row">[\d-]+<\/th><td class="num">(\d+)<\/td><td class="num">([^<]+)<\/td><\/tr>/g)];
  return new Map(rows.map((m) => [m[1]!, [Number(m[2]), m[3]!]]));
}

/** The same figures recounted from the orders themselves: per local day of `timeZone`, cancelled ones left out. */
function recount(orders: { ts: string; total: Decimal; cancelled: boolean }[], timeZone: string): Map<string, [number, Decimal]> {
  const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const out = new Map<string, [number, Decimal]>();
  for (const o of orders) {
    if (o.cancelled) continue;
    const day = dayOf.format(new Date(o.ts));
    const [n, s] = out.get(day) ?? [0, new Decimal(0)];
    out.set(day, [n + 1, s.plus(o.total)]);
  }
  return out;
}

/** As the console shows money: every stored digit, at least 2 decimals, thousands grouped. */
const money = (d: Decimal) => {
  const [whole, fraction] = d.toFixed(Math.max(2, d.decimalPlaces())).split('.');
  return `$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
};

describe('console: the home chart reads a rollup kept by the order writes', () => {
  const clock = manualClock(NOW);
  let t: TestApp;
  let shop: SeededAccount;
  let owner: ConsoleBrowser;
  const placed: { ts: string; total: Decimal; cancelled: boolean; order: Order }[] = [];

  const home = async () => {
    const res = await owner.get('/console/home');
    assert.equal(res.statusCode, 200, res.body);
    return res.body;
  };
  /** The rollup's rows of the account against a recount from sales_orders and sales_order_totals (by quarter hour). */
  const rollupAndRecount = async () => {
    const db = t.deps.db.db;
    const stored = await db.selectFrom('sales_order_quarter_hours').select(['quarter', 'orders', 'sales']).where('account_id', '=', shop.accountId).execute();
    const rollup = new Map(stored.filter((r) => Number(r.orders) !== 0 || Number(r.sales) !== 0).map((r) => [Number(r.quarter), `${Number(r.orders)}/${String(r.sales)}`]));
    const orders = await db
      .selectFrom('sales_orders as o')
      .innerJoin('sales_order_totals as s', (j) => j.onRef('s.order_id', '=', 'o.id').onRef('s.account_id', '=', 'o.account_id'))
      .select(['o.order_ts', 'o.status', 's.total'])
      .where('o.account_id', '=', shop.accountId)
      .execute();
    const counted = new Map<number, [number, Decimal]>();
    for (const o of orders) {
      if (o.status === 'CANCELLED') continue;
      const q = Math.floor(Date.parse(o.order_ts) / 900_000);
      const [n, s] = counted.get(q) ?? [0, new Decimal(0)];
      counted.set(q, [n + 1, s.plus(new Decimal(String(o.total)).times(SALES_SCALE).round())]);
    }
    return { rollup, recounted: new Map([...counted].map(([q, [n, s]]) => [q, `${n}/${s.toFixed()}`])) };
  };

  before(async () => {
    t = await createTestApp({ clock });
    shop = await seedAccount(t, 'Rollup Shop');
    await stock(t, shop.sellerToken, 'TEE', shop.warehouses.main, 10_000);
    assert.equal((await admin(t, 'POST', `/admin/accounts/${shop.accountId}/users`, { email: 'owner@rollup.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@rollup.example', PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  it('orders created in parallel are each counted once: the rollup equals a recount, on the page too', async () => {
    // 40 orders at the same time (PostgreSQL: parallel transactions on one quarter hour's row), spread over
    // quarter hours that different zones put on different days: 18:15 (Kathmandu's midnight), 18:30 (Kolkata's),
    // 04:00/05:00 (New York's, EDT/EST) and a few others, with prices that need every decimal.
    const times = ['2026-11-22T18:14:59Z', '2026-11-22T18:15:00Z', '2026-11-22T18:29:00Z', '2026-11-22T18:30:00Z', '2026-11-23T04:59:00Z', '2026-11-23T05:00:00Z', '2026-10-25T03:59:00Z', '2026-10-25T04:00:00Z'];
    const created = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const ts = times[i % times.length]!;
        const unitPrice = `${i + 1}.${String(i * 7 % 100).padStart(2, '0')}5`;
        const quantity = 1 + (i % 3);
        const order = await createOrder(t, shop.channel.token, orderBody(`R-${i}`, [{ requestedSku: 'TEE', quantity, unitPrice }], { orderTs: ts }));
        return { ts, total: new Decimal(unitPrice).times(quantity), cancelled: false, order };
      }),
    );
    placed.push(...created);
    const { rollup, recounted } = await rollupAndRecount();
    assert.deepEqual(rollup, recounted);
    assert.equal([...rollup.values()].reduce((n, v) => n + Number(v.split('/')[0]), 0), 40, 'every order counted once');
    const rows = dayRows(await home());
    for (const [day, [n, s]] of recount(placed, 'UTC')) {
      if (day < '2026-10-25') continue;
      assert.deepEqual(rows.get(day), [n, money(s)], day);
    }
  });

  it('an order cancelled in full leaves the chart', async () => {
    const full = placed[0]!;
    const cancel = (order: Order, payload: object) =>
      t.app.inject({ method: 'POST', url: `/v1/salesOrder/cancel/${order.orderNumber}`, headers: bearer(shop.channel.token), payload });
    const res = await cancel(full.order, { cancellationReason: 'BuyerCanceled' });
    assert.equal(res.statusCode, 200, res.body);
    full.cancelled = true;
    const { rollup, recounted } = await rollupAndRecount();
    assert.deepEqual(rollup, recounted);
    const rows = dayRows(await home());
    const day = recount(placed, 'UTC').get('2026-11-22')!;
    assert.deepEqual(rows.get('2026-11-22'), [day[0], money(day[1])]);
  });

  it('stays right when the operator changes the time zone: whole-hour, half-hour and 45-minute zones, summer time', async () => {
    for (const timeZone of ['Asia/Kathmandu', 'Asia/Kolkata', 'America/New_York', 'Australia/Eucla', 'Pacific/Chatham', 'UTC']) {
      assert.equal((await admin(t, 'PATCH', `/admin/accounts/${shop.accountId}`, { timeZone })).statusCode, 200);
      const rows = dayRows(await home());
      assert.equal(rows.size, 30, timeZone);
      const expected = recount(placed, timeZone);
      for (const [day, [n, s]] of rows) {
        const want = expected.get(day);
        assert.deepEqual([n, s], want ? [want[0], money(want[1])] : [0, '$0.00'], `${timeZone} ${day}`);
      }
    }
  });

  it("the migration's backfill writes what the order writes wrote", async () => {
    const db = t.deps.db.db;
    const before = await rollupAndRecount();
    await db.deleteFrom('sales_order_quarter_hours').execute();
    await backfillOrderDayFigures(db as unknown as Parameters<typeof backfillOrderDayFigures>[0], t.deps.db.dialect);
    const afterwards = await rollupAndRecount();
    assert.deepEqual(afterwards.rollup, before.rollup);
    assert.deepEqual(afterwards.rollup, afterwards.recounted);
  });
});
