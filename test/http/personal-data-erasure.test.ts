import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createDeps } from '../../src/create-deps.js';
import { withTx } from '../../src/db/tx.js';
import { eraseOrderPersonalData } from '../../src/domain/personal-data/erase-order.js';
import { runPersonalDataSweep } from '../../src/jobs/handlers/personal-data-sweep.js';
import { admin, assertV1Error } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';
import { buyer, shipAll } from './personal-data-support.js';

/**
 * Erasure on request (resolutions §10): POST /admin/accounts/{accountId}/personal-data/erase redacts the
 * buyer's closed orders at once and records the open ones, which are redacted once they close, even when
 * the service restarted in between; the audit entry keeps no personal data; bad input is a 400 naming the
 * field, an unknown account a 404. The console's per-order action calls eraseOrderPersonalData.
 */
describe('personal data: erasure on request', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let n = 0;
  const GRACE = 'Grace.Hopper@Example.com';

  const order = async (who: Record<string, unknown>, account = seed) => {
    n += 1;
    clock.advance(1000);
    return createOrder(t, account.channel.token, orderBody(`ER-${n}`, [{ requestedSku: 'ER', quantity: 1, giftWrapMessage: 'For Grace' }], who));
  };
  const read = async (o: Order, account = seed) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${o.orderNumber}`, headers: bearer(account.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order & Record<string, unknown>;
  };
  const erase = (payload: unknown, accountId = seed.accountId) => admin(t, 'POST', `/admin/accounts/${accountId}/personal-data/erase`, payload);

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Erasure Shop');
    other = await seedAccount(t, 'Other Shop');
    await stock(t, seed.sellerToken, 'ER', seed.warehouses.main, 1000);
    await stock(t, other.sellerToken, 'ER', other.warehouses.main, 1000);
  });
  after(async () => t.close());

  it('redacts closed orders at once and open ones once they close, across a restart', async () => {
    const closed = await order(buyer('Grace Hopper', GRACE));
    await shipAll(t, seed, closed, clock.now().toISOString());
    // Only the ship-to email names her: matched too.
    const shipToOnly = await order({ ...buyer('G. Hopper', 'someone.else@example.com'), customerEmail: null, shippingAddress: { name: 'G. Hopper', addressLine1: '1 Navy Yard', city: 'Arlington', postalCode: '22202', countryCode: 'US', email: ' grace.hopper@example.com ' } });
    const cancelled = await order(buyer('Grace Hopper', 'GRACE.HOPPER@EXAMPLE.COM'));
    assert.equal((await t.app.inject({ method: 'POST', url: `/v1/salesOrder/cancel/${cancelled.orderNumber}`, headers: bearer(seed.channel.token), payload: { cancellationReason: 'buyercanceled' } })).statusCode, 200);
    const open = await order(buyer('Grace Hopper', GRACE));
    const someoneElse = await order(buyer('Alan Turing', 'alan@example.com'));
    const otherAccount = await order(buyer('Grace Hopper', GRACE), other);
    await shipAll(t, other, otherAccount, clock.now().toISOString());

    const res = await erase({ customerEmail: '  grace.hopper@EXAMPLE.com ' });
    assert.equal(res.statusCode, 200, res.body);
    // shipToOnly is open (not shipped): pending with `open`.
    assert.deepEqual(res.json(), { redactedOrders: 2, pendingOrders: 2 });
    const now = clock.now().toISOString();
    assert.equal((await read(closed)).personalDataRedactedTs, now);
    assert.equal((await read(closed)).customerName, null);
    assert.equal((await read(cancelled)).personalDataRedactedTs, now);
    assert.equal((await read(open)).personalDataRedactedTs, null, 'open: recorded, not yet redacted');
    assert.equal((await read(open)).customerName, 'Grace Hopper');
    assert.equal((await read(shipToOnly)).personalDataRedactedTs, null);
    assert.equal((await read(someoneElse)).customerName, 'Alan Turing', 'another buyer is untouched');
    assert.equal((await read(otherAccount, other)).customerName, 'Grace Hopper', "another account's orders are untouched");

    // The audit entry: who, when, how many; never the email or a name.
    const audit = await t.deps.db.db.selectFrom('personal_data_audit').selectAll().where('account_id', '=', seed.accountId).where('action', '=', 'ERASE_BUYER').execute();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.redacted_orders, 2);
    assert.equal(audit[0]!.pending_orders, 2);
    assert.equal(audit[0]!.requested_by, 'operator-api');
    assert.ok(!/grace|hopper/i.test(JSON.stringify(audit)));
    const pending = await t.deps.db.db.selectFrom('personal_data_erasures').selectAll().where('account_id', '=', seed.accountId).orderBy('order_id').execute();
    assert.deepEqual(pending.map((p) => p.order_id), [Number(shipToOnly.orderNumber), Number(open.orderNumber)].sort((a, b) => a - b));
    assert.ok(!/grace|hopper/i.test(JSON.stringify(pending)), 'the pending record keeps no email');

    // A sweep while they are still open changes nothing.
    await runPersonalDataSweep(t.deps);
    assert.equal((await read(open)).personalDataRedactedTs, null);

    // "Restart": a new set of dependencies over the same database (nothing is remembered in memory).
    clock.advance(60_000);
    await shipAll(t, seed, open, clock.now().toISOString());
    assert.equal((await read(open)).personalDataRedactedTs, null, 'redacted by the sweep, not yet');
    const restarted = createDeps(t.deps.config, { db: t.deps.db, log: t.deps.log, clock, signer: t.deps.signer, rateLimiter: null });
    clock.advance(60_000);
    await runPersonalDataSweep(restarted);
    const redacted = await read(open);
    assert.equal(redacted.personalDataRedactedTs, clock.now().toISOString(), 'closed an hour after the request: redacted although the retention (30 days) has not passed');
    assert.equal(redacted.customerEmail, null);
    assert.deepEqual(redacted.shippingAddress, { countryCode: 'GB' });
    assert.equal((await read(shipToOnly)).personalDataRedactedTs, null, 'still open, still pending');
    assert.equal((await t.deps.db.db.selectFrom('personal_data_erasures').selectAll().where('account_id', '=', seed.accountId).execute()).length, 1);

    // A second request finds nothing new to redact: the redacted orders no longer hold the email.
    const again = await erase({ customerEmail: GRACE });
    assert.deepEqual(again.json(), { redactedOrders: 0, pendingOrders: 1 });
  });

  it('erases one order on request (the console action): closed at once, open when it closes, another account null', async () => {
    const closed = await order(buyer('Ida Order', 'ida@example.com'));
    await shipAll(t, seed, closed, clock.now().toISOString());
    const open = await order(buyer('Ida Order', 'ida@example.com'));
    const db = t.deps.db.db;
    const at = clock.now();
    assert.equal(await withTx(db, (tx) => eraseOrderPersonalData(tx, seed.accountId, Number(closed.orderNumber), 'console-user:1', at)), 'redacted');
    assert.equal(await withTx(db, (tx) => eraseOrderPersonalData(tx, seed.accountId, Number(closed.orderNumber), 'console-user:1', at)), 'already-redacted');
    assert.equal(await withTx(db, (tx) => eraseOrderPersonalData(tx, seed.accountId, Number(open.orderNumber), 'console-user:1', at)), 'pending');
    assert.equal(await withTx(db, (tx) => eraseOrderPersonalData(tx, other.accountId, Number(open.orderNumber), 'console-user:1', at)), null);
    assert.equal((await read(closed)).customerName, null);
    assert.equal((await read(open)).customerName, 'Ida Order');
    const res = await t.app.inject({ method: 'POST', url: `/v1/salesOrder/cancel/${open.orderNumber}`, headers: bearer(seed.channel.token), payload: { cancellationReason: 'buyercanceled' } });
    assert.equal(res.statusCode, 200, res.body);
    await runPersonalDataSweep(t.deps);
    assert.equal((await read(open)).customerName, null);
  });

  it('refuses bad input naming the field, and an unknown account with 404', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: `/admin/accounts/${seed.accountId}/personal-data/erase`,
      headers: { authorization: (await import('../helpers/admin.js')).adminHeaders.authorization, 'content-type': 'application/json' },
      payload: '{"customerEmail": ',
    });
    assertV1Error(malformed, 400);
    assertV1Error(await erase({}), 400, /customerEmail/);
    assertV1Error(await erase({ customerEmail: 42 }), 400, /customerEmail/);
    assertV1Error(await erase({ customerEmail: 'not an email' }), 400, /customerEmail/);
    assertV1Error(await erase({ customerEmail: 'a@b.example', extra: 1 }), 400);
    assertV1Error(await erase({ customerEmail: 'a@b.example' }, 999_999), 404);
    assertV1Error(await erase({ customerEmail: 'a@b.example' }, 0), 400);
    const unauth = await t.app.inject({ method: 'POST', url: `/admin/accounts/${seed.accountId}/personal-data/erase`, payload: { customerEmail: 'a@b.example' } });
    assert.equal(unauth.statusCode, 401);
  });
});
