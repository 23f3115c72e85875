import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sweepPersonalData } from '../../src/domain/personal-data/retention-sweep.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { buyer } from './personal-data-support.js';
import { createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

const PASSWORD = 'correct horse battery';

/**
 * The order page's erasure (issue 29 item 4): an owner erases the buyer's personal data from one order, or from
 * every order of the buyer's email; a closed order at once, an open one once it closes; a staff user cannot.
 */
describe("console: erasing a buyer's personal data", () => {
  const clock = manualClock(new Date('2026-11-26T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let owner: ConsoleBrowser;
  let staff: ConsoleBrowser;
  let n = 0;

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Erasure Shop');
    other = await seedAccount(t, 'Other Shop');
    await stock(t, seed.sellerToken, 'PD-1', seed.warehouses.main, 100);
    for (const [email, role] of [
      ['owner@erase.example', 'OWNER'],
      ['staff@erase.example', 'STAFF'],
    ] as const) {
      assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email, password: PASSWORD, role })).statusCode, 201);
    }
    owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@erase.example', PASSWORD)).statusCode, 303);
    staff = consoleBrowser(t);
    assert.equal((await staff.signIn('staff@erase.example', PASSWORD)).statusCode, 303);
  });
  after(async () => t.close());

  const order = (name: string, email: string, account = seed): Promise<Order> => {
    clock.advance(1000);
    return createOrder(t, account.channel.token, orderBody(`PD-${++n}`, [{ requestedSku: 'PD-1', quantity: 1 }], buyer(name, email)));
  };
  const apiOrder = async (o: Order, account = seed) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${o.orderNumber}`, headers: bearer(account.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order & { customerName: string | null; customerEmail: string | null; personalDataRedactedTs: string | null };
  };
  /** Cancels every unit: the order is closed (CANCELLED). */
  const close = async (o: Order) => {
    const lineId = o.products[0]!.lineItemId;
    assert.equal((await owner.post(`/console/orders/${o.orderNumber}/cancel`, { [`qty_${lineId}`]: '1', reason: 'buyer asked' })).statusCode, 303);
    assert.equal((await apiOrder(o)).status, 'CANCELLED');
  };

  it('shows the retention and erases a closed order at once, its page saying when', async () => {
    const o = await order('Ada Lovelace', 'ada@example.com');
    await close(o);
    const page = await owner.get(`/console/orders/${o.orderNumber}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Buyer&#39;s personal data|Buyer's personal data/);
    assert.match(page.body, /erased 30 days after the order is done/);
    assert.match(page.body, /Erase from this order/);
    assert.match(page.body, /Erase from all of this buyer&#39;s orders|Erase from all of this buyer.s orders/);

    const flash = await owner.flashOf(`/console/orders/${o.orderNumber}/erase-personal-data`, {});
    assert.deepEqual(flash, { kind: 'ok', text: "The buyer's personal data was erased from this order." });
    const after = await apiOrder(o);
    assert.equal(after.customerName, null);
    assert.equal(after.customerEmail, null);
    assert.ok(after.personalDataRedactedTs);
    const erased = await owner.get(`/console/orders/${o.orderNumber}`);
    assert.match(erased.body, /Erased on <time/);
    assert.doesNotMatch(erased.body, /Ada Lovelace|ada@example\.com/);
    assert.doesNotMatch(erased.body, /Erase from this order/);
  });

  it('records the erasure of an open order and carries it out once the order closes', async () => {
    const o = await order('Grace Hopper', 'grace@example.com');
    const flash = await owner.flashOf(`/console/orders/${o.orderNumber}/erase-personal-data`, {});
    assert.deepEqual(flash, { kind: 'ok', text: "Erasure recorded: the buyer's personal data goes as soon as this order is done." });
    assert.equal((await apiOrder(o)).customerName, 'Grace Hopper');
    assert.match((await owner.get(`/console/orders/${o.orderNumber}`)).body, /An erasure was requested/);
    await close(o);
    await sweepPersonalData(t.deps.db.db, clock.now());
    const after = await apiOrder(o);
    assert.equal(after.customerName, null);
    assert.ok(after.personalDataRedactedTs);
  });

  it("erases every order of the buyer's email: the closed ones now, the open ones when they close", async () => {
    const closed = await order('Katherine Johnson', 'kj@example.com');
    await close(closed);
    const open = await order('Katherine Johnson', 'KJ@example.com');
    const stranger = await order('Someone Else', 'else@example.com');
    const foreign = await order('Katherine Johnson', 'kj@example.com', other);
    const flash = await owner.flashOf(`/console/orders/${open.orderNumber}/erase-buyer`, {});
    assert.deepEqual(flash, { kind: 'ok', text: 'Erased from 1 order of this buyer. 1 open order of this buyer will be erased as soon as they are done.' });
    assert.equal((await apiOrder(closed)).customerName, null);
    assert.equal((await apiOrder(open)).customerName, 'Katherine Johnson');
    assert.equal((await apiOrder(stranger)).customerName, 'Someone Else');
    // Another account's orders of the same email are not this seller's to erase.
    assert.equal((await apiOrder(foreign, other)).customerName, 'Katherine Johnson');
  });

  it('lets only an owner erase; a staff user is refused and nothing changes', async () => {
    const o = await order('Mary Jackson', 'mary@example.com');
    await close(o);
    const page = await staff.get(`/console/orders/${o.orderNumber}`);
    assert.match(page.body, /Only an account owner can erase/);
    assert.doesNotMatch(page.body, /Erase from this order/);
    for (const action of ['erase-personal-data', 'erase-buyer']) {
      const flash = await staff.flashOf(`/console/orders/${o.orderNumber}/${action}`, {});
      assert.equal(flash?.kind, 'bad');
      assert.match(flash!.text, /only an account owner/i);
    }
    assert.equal((await apiOrder(o)).customerName, 'Mary Jackson');
    // Without the form token: 403, nothing erased.
    const forged = await owner.post(`/console/orders/${o.orderNumber}/erase-personal-data`, {}, { csrf: false });
    assert.equal(forged.statusCode, 403);
    assert.equal((await apiOrder(o)).customerName, 'Mary Jackson');
  });

  it("answers another account's order as not found", async () => {
    const foreign = await order('Dorothy Vaughan', 'dv@example.com', other);
    const flash = await owner.flashOf(`/console/orders/${foreign.orderNumber}/erase-personal-data`, {});
    assert.equal(flash?.kind, 'bad');
    assert.equal((await apiOrder(foreign, other)).customerName, 'Dorothy Vaughan');
  });
});
