import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { manualClock } from '../../src/lib/clock.js';
import { sweepPersonalData } from '../../src/domain/personal-data/retention-sweep.js';
import { PERSONAL_DATA_SWEEP, runPersonalDataSweep } from '../../src/jobs/handlers/personal-data-sweep.js';
import { defaultJobRegistry } from '../../src/jobs/registry.js';
import { RECURRING_JOBS } from '../../src/jobs/schedules.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { ORDER_TS, createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';
import { buyer, shipAll } from './personal-data-support.js';
import { foOf, fulfillmentOrder } from './v2-shipping-support.js';

const DAY = 24 * 60 * 60 * 1000;

/**
 * The personal-data retention (resolutions §10, issue 29): the sweep redacts a closed order once its closing
 * event is older than the account's retention (not a day before), and afterwards no view holds the buyer's
 * data: v1 get and list, v2 fulfillment order, the console's order page, packing slip and search, and the
 * stored rows (lines, packages, search terms).
 */
describe('personal data: the retention sweep and every view after redaction', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let keeper: SeededAccount;
  let owner: ConsoleBrowser;
  let n = 0;

  const order = async (who = buyer('Ada Lovelace', 'Ada.Lovelace@Example.com'), account = seed) => {
    n += 1;
    clock.advance(1000);
    return createOrder(t, account.channel.token, orderBody(`PD-${n}`, [{ requestedSku: 'PD', quantity: 2, giftWrapMessage: 'Happy birthday Ada, love from Charles' }], who));
  };
  const read = async (o: Order, account = seed) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${o.orderNumber}`, headers: bearer(account.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order & Record<string, unknown>;
  };
  const stored = async (o: Order) => {
    const db = t.deps.db.db;
    const id = Number(o.orderNumber);
    return JSON.stringify({
      order: await db.selectFrom('sales_orders').selectAll().where('id', '=', id).execute(),
      lines: await db.selectFrom('sales_order_lines').selectAll().where('order_id', '=', id).execute(),
      packages: await db.selectFrom('sales_order_packages').selectAll().where('order_id', '=', id).execute(),
      terms: await db.selectFrom('sales_order_search_terms').selectAll().where('order_id', '=', id).execute(),
    });
  };
  const searchFinds = async (q: string, o: Order) => {
    const res = await owner.get(`/console/orders?q=${encodeURIComponent(q)}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.body.includes(`href="/console/orders/${o.orderNumber}"`);
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Retention Shop');
    keeper = await seedAccount(t, 'Keeps Everything');
    await stock(t, seed.sellerToken, 'PD', seed.warehouses.main, 1000);
    await stock(t, keeper.sellerToken, 'PD', keeper.warehouses.main, 1000);
    assert.equal((await admin(t, 'PATCH', `/admin/accounts/${keeper.accountId}`, { personalDataRetentionDays: null })).statusCode, 200);
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@retention.example', password: 'correct horse battery', role: 'OWNER' })).statusCode, 201);
    owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@retention.example', 'correct horse battery')).statusCode, 303);
  });
  after(async () => t.close());

  it('is a recurring job: registered, and scheduled hourly (so it runs at start too)', () => {
    assert.ok(defaultJobRegistry().get(PERSONAL_DATA_SWEEP));
    const schedule = RECURRING_JOBS.find((j) => j.type === PERSONAL_DATA_SWEEP);
    assert.equal(schedule?.everyMs, 60 * 60_000);
  });

  it('redacts a closed order one day after its retention, not one day before; open orders and null retention keep their data', async () => {
    assert.equal((await admin(t, 'GET', `/admin/accounts/${seed.accountId}`)).json<{ personalDataRetentionDays: number }>().personalDataRetentionDays, 30);
    const shipped = await order();
    const open = await order();
    const kept = await order(buyer('Keeper Buyer', 'keeper@example.com'), keeper);
    const fo = await foOf(t, seed.shipping.token, shipped.orderNumber);
    const shippedTs = new Date(clock.now().getTime() - 60_000).toISOString();
    await shipAll(t, seed, shipped, shippedTs);
    await shipAll(t, keeper, kept, shippedTs);
    assert.ok(await searchFinds('lovelace', shipped), 'found by name before redaction');

    clock.advance(29 * DAY);
    await runPersonalDataSweep(t.deps);
    let view = await read(shipped);
    assert.equal(view.personalDataRedactedTs, null, '29 days after shipping the data is kept');
    assert.equal(view.customerName, 'Ada Lovelace');

    clock.advance(2 * DAY);
    await runPersonalDataSweep(t.deps);
    const redactedAt = clock.now().toISOString();
    view = await read(shipped);
    assert.equal(view.personalDataRedactedTs, redactedAt, '31 days after shipping the order is redacted');
    assert.equal(view.customerName, null);
    assert.equal(view.customerEmail, null);
    assert.equal(view.customer_notes, null);
    assert.deepEqual(view.shippingAddress, { countryCode: 'GB' });
    assert.deepEqual(view.billingAddress, { countryCode: 'GB' });
    assert.equal(view.products[0]!['giftWrapMessage'], null);
    assert.equal(view.status, 'SHIPPED', 'statuses, ids, quantities and money stay');
    assert.equal(view.products[0]!.quantity, 2);

    const openView = await read(open);
    assert.equal(openView.personalDataRedactedTs, null, 'an open order is never redacted by the retention');
    assert.equal(openView.customerName, 'Ada Lovelace');
    assert.equal((await read(kept, keeper)).customerName, 'Keeper Buyer', 'null retention keeps the data');

    // v1 list
    const list = await t.app.inject({ url: '/v1/salesOrder?pageSize=100', headers: bearer(seed.sellerToken) });
    assert.equal(list.statusCode, 200, list.body);
    const listed = (list.json() as { results: (Order & Record<string, unknown>)[] }).results.find((o) => o.orderNumber === shipped.orderNumber);
    assert.equal(listed?.personalDataRedactedTs, redactedAt);
    assert.deepEqual(listed?.shippingAddress, { countryCode: 'GB' });
    // v2 fulfillment order: shipTo absent, buyerName empty (the answer check validates the closed schema).
    const v2 = await fulfillmentOrder(t, seed.shipping.token, fo.fulfillmentOrderId);
    assert.equal('shipTo' in v2, false);
    assert.equal((v2 as unknown as { buyerName: string }).buyerName, '');
    // Stored rows: nothing of the buyer is left (lines, packages' shippedTo, search terms).
    const rows = await stored(shipped);
    for (const word of ['Lovelace', 'lovelace', 'Ada.', 'ada', 'James Square', 'birthday', 'ring twice', '7946']) assert.ok(!rows.includes(word), `${word} is gone: ${rows}`);
    // Console: order page, packing slip, list, search (signed in again: the month ended the session).
    owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@retention.example', 'correct horse battery')).statusCode, 303);
    const page = await owner.get(`/console/orders/${shipped.orderNumber}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /Redacted/);
    assert.ok(!page.body.includes('Lovelace'));
    const slip = await owner.get(`/console/orders/${shipped.orderNumber}/packing-slip`);
    assert.equal(slip.statusCode, 200, slip.body);
    assert.match(slip.body, /Redacted/);
    assert.ok(!slip.body.includes('Lovelace') && !slip.body.includes('birthday'));
    assert.equal(await searchFinds('lovelace', shipped), false, 'the search no longer finds it by name');
    assert.equal(await searchFinds('ada.lovelace@example.com', shipped), false, 'nor by email');
    assert.ok(await searchFinds('lovelace', open), 'the open order is still found');
    const listPage = await owner.get('/console/orders');
    assert.match(listPage.body, /redacted/);
  });

  it('is idempotent: a second sweep changes nothing', async () => {
    const before = await t.deps.db.db.selectFrom('sales_orders').select(['id', 'personal_data_redacted_ts', 'shipping_address']).orderBy('id').execute();
    const audits = await t.deps.db.db.selectFrom('personal_data_audit').selectAll().execute();
    clock.advance(60 * 60_000);
    await runPersonalDataSweep(t.deps);
    assert.deepEqual(await t.deps.db.db.selectFrom('sales_orders').select(['id', 'personal_data_redacted_ts', 'shipping_address']).orderBy('id').execute(), before);
    assert.deepEqual(await t.deps.db.db.selectFrom('personal_data_audit').selectAll().execute(), audits);
    assert.ok(audits.some((a) => a.action === 'RETENTION_SWEEP' && a.redacted_orders >= 1));
  });

  it("counts from a late-reported shipment's own shippedTs, not from when it was reported", async () => {
    // The test orders were placed at ORDER_TS, weeks before the clock: a shipment dated a second after it and
    // reported now closes the order at its shippedTs, already past the retention.
    const o = await order();
    const shippedTs = new Date(Date.parse(ORDER_TS) + 1000).toISOString();
    await shipAll(t, seed, o, shippedTs);
    const closedTs = (await t.deps.db.db.selectFrom('sales_orders').select('closed_ts').where('id', '=', Number(o.orderNumber)).executeTakeFirstOrThrow()).closed_ts;
    assert.equal(closedTs, shippedTs);
    await runPersonalDataSweep(t.deps);
    assert.equal((await read(o)).personalDataRedactedTs, clock.now().toISOString());
  });

  it('counts from the cancellation of a cancelled order', async () => {
    const o = await order();
    const res = await t.app.inject({ method: 'POST', url: `/v1/salesOrder/cancel/${o.orderNumber}`, headers: bearer(seed.channel.token), payload: { cancellationReason: 'buyercanceled' } });
    assert.equal(res.statusCode, 200, res.body);
    clock.advance(29 * DAY);
    await runPersonalDataSweep(t.deps);
    assert.equal((await read(o)).personalDataRedactedTs, null);
    clock.advance(2 * DAY);
    await runPersonalDataSweep(t.deps);
    assert.equal((await read(o)).personalDataRedactedTs, clock.now().toISOString());
  });
});

describe('personal data: a sweep that fails mid-way resumes and redacts each order once', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Crash Shop');
    await stock(t, seed.sellerToken, 'PD', seed.warehouses.main, 1000);
    assert.equal((await admin(t, 'PATCH', `/admin/accounts/${seed.accountId}`, { personalDataRetentionDays: 1 })).statusCode, 200);
  });
  after(async () => t.close());

  it('the committed batches stay redacted, the rest is done by the next run, no order twice', async () => {
    const orders: Order[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      const o = await createOrder(t, seed.channel.token, orderBody(`CR-${i}`, [{ requestedSku: 'PD', quantity: 1 }], buyer(`Crash Buyer ${i}`, `crash${i}@example.com`)));
      await shipAll(t, seed, o, clock.now().toISOString());
      orders.push(o);
    }
    clock.advance(2 * DAY);
    const firstRun = clock.now();
    await assert.rejects(
      sweepPersonalData(t.deps.db.db, firstRun, {
        batchSize: 2,
        beforeBatch: (b) => {
          if (b === 1) throw new Error('worker killed mid-sweep');
        },
      }),
      /killed mid-sweep/,
    );
    const stamps = async () =>
      t.deps.db.db.selectFrom('sales_orders').select(['id', 'personal_data_redacted_ts']).where('account_id', '=', seed.accountId).orderBy('id').execute();
    const afterCrash = await stamps();
    assert.deepEqual(
      afterCrash.map((r) => r.personal_data_redacted_ts),
      [firstRun.toISOString(), firstRun.toISOString(), null, null, null],
      'the first batch committed; nothing of the failed one',
    );
    clock.advance(60_000);
    const result = await sweepPersonalData(t.deps.db.db, clock.now(), { batchSize: 2 });
    assert.deepEqual(result, { expired: 3, erased: 0 });
    const afterResume = await stamps();
    assert.deepEqual(
      afterResume.map((r) => r.personal_data_redacted_ts),
      [firstRun.toISOString(), firstRun.toISOString(), clock.now().toISOString(), clock.now().toISOString(), clock.now().toISOString()],
      'the first two were not redacted again',
    );
    const audit = await t.deps.db.db
      .selectFrom('personal_data_audit')
      .select(sql<number>`sum(redacted_orders)`.as('total'))
      .where('account_id', '=', seed.accountId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(audit.total), 5, 'each order accounted for exactly once');
    for (const o of orders) assert.equal((await t.app.inject({ url: `/v1/salesOrder/${o.orderNumber}`, headers: bearer(seed.sellerToken) })).json<{ customerName: unknown }>().customerName, null);
  });
});
