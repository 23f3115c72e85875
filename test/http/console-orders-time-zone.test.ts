import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { startOfDayIn } from '../../src/lib/zoned-day.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

/**
 * Issue 24 item 7: the dates a seller types in the orders list's "More filters" are days on the account's
 * clock. An order placed at 23:30 UTC on the 20th is on the 21st for a UTC+2 account, and on the 20th for a
 * UTC one.
 */

const PASSWORD = 'correct horse battery';
const listed = (body: string, order: Order) => body.includes(`href="/console/orders/${order.orderNumber}"`);

describe('console: the orders date filter reads days in the account time zone', () => {
  const clock = manualClock(new Date('2026-11-23T09:00:00.000Z'));
  let t: TestApp;
  let zoned: SeededAccount;
  let utc: SeededAccount;
  let zonedLate: Order;
  let utcLate: Order;
  let zonedOwner: ConsoleBrowser;
  let utcOwner: ConsoleBrowser;

  const ownerOf = async (seed: SeededAccount, email: string): Promise<ConsoleBrowser> => {
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email, password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    const b = consoleBrowser(t);
    assert.equal((await b.signIn(email, PASSWORD)).statusCode, 303);
    return b;
  };

  before(async () => {
    t = await createTestApp({ clock });
    zoned = await seedAccount(t, 'Athens Shop');
    utc = await seedAccount(t, 'UTC Shop');
    // Europe/Athens is UTC+2 in November (EET).
    assert.equal((await admin(t, 'PATCH', `/admin/accounts/${zoned.accountId}`, { timeZone: 'Europe/Athens' })).statusCode, 200);
    for (const seed of [zoned, utc]) await stock(t, seed.sellerToken, 'TZ-MUG', seed.warehouses.main, 10);
    zonedLate = await createOrder(t, zoned.channel.token, orderBody('TZ-LATE', [{ requestedSku: 'TZ-MUG', quantity: 1 }], { orderTs: '2026-11-20T23:30:00Z' }));
    utcLate = await createOrder(t, utc.channel.token, orderBody('TZ-LATE', [{ requestedSku: 'TZ-MUG', quantity: 1 }], { orderTs: '2026-11-20T23:30:00Z' }));
    zonedOwner = await ownerOf(zoned, 'owner@athens.example');
    utcOwner = await ownerOf(utc, 'owner@utc.example');
  });
  after(() => t.close());

  it('an order at 23:30 UTC on the 20th is on the 21st for a UTC+2 account', async () => {
    const onThe21st = await zonedOwner.get('/console/orders?from=2026-11-21&to=2026-11-21');
    assert.equal(onThe21st.statusCode, 200, onThe21st.body);
    assert.ok(listed(onThe21st.body, zonedLate), 'listed on the 21st');
    const onThe20th = await zonedOwner.get('/console/orders?from=2026-11-20&to=2026-11-20');
    assert.equal(listed(onThe20th.body, zonedLate), false, 'not on the 20th');
    // Shown as the seller reads it, too.
    assert.match(onThe21st.body, /2026-11-21 01:30 EET/);
  });

  it('the same order is on the 20th for a UTC account', async () => {
    assert.ok(listed((await utcOwner.get('/console/orders?from=2026-11-20&to=2026-11-20')).body, utcLate));
    assert.equal(listed((await utcOwner.get('/console/orders?from=2026-11-21&to=2026-11-21')).body, utcLate), false);
  });

  it('a day that does not exist is refused in words', async () => {
    const res = await zonedOwner.get('/console/orders?from=2026-02-30');
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /The &#34;Ordered from&#34; date is not a date\. Pick one in the calendar/);
  });

  it('a day starts at its local midnight, summer time and zones without a midnight included', () => {
    assert.equal(startOfDayIn('2026-11-21', 'Europe/Athens').toISOString(), '2026-11-20T22:00:00.000Z');
    assert.equal(startOfDayIn('2026-07-01', 'Europe/Athens').toISOString(), '2026-06-30T21:00:00.000Z');
    assert.equal(startOfDayIn('2026-11-20', 'UTC', 1).toISOString(), '2026-11-21T00:00:00.000Z');
    assert.equal(startOfDayIn('2026-12-31', 'America/New_York', 1).toISOString(), '2027-01-01T05:00:00.000Z');
    // Santiago skips from 00:00 to 01:00 when summer time starts (2026-09-06): the day begins at 01:00 local.
    assert.equal(startOfDayIn('2026-09-06', 'America/Santiago').toISOString(), '2026-09-06T04:00:00.000Z');
    // An unknown zone counts as UTC, as the pages show it.
    assert.equal(startOfDayIn('2026-11-21', 'Mars/Olympus').toISOString(), '2026-11-21T00:00:00.000Z');
  });
});
