import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueAdHocToken } from '../../src/domain/accounts/oauth.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import {
  assertV1Error,
  createShipment,
  listShipments,
  shipmentAction,
  shipmentBody,
  type ShipmentPage,
  type ShipmentRecord,
} from './v1-inbound-helpers.js';

/** GET /v1/inbound-shipment (document 4.3, 4.9; resolutions §0, §1, §2, §7, §8). */
describe('v1 inbound shipments: list', () => {
  const clock = manualClock(new Date('2026-11-01T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  /** s[0..4] created a minute apart; s[0] is then shipped, which moves it last. */
  const s: ShipmentRecord[] = [];
  let shippedFirst: ShipmentRecord;

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other seller');
    const { main, second } = seed.warehouses;
    const specs: [number, string, string][] = [
      [main, 'Vendor A', 'PENDING'],
      [second, 'Vendor B', 'SHIPPED'],
      [main, 'Vendor B', 'PENDING'],
      [second, 'Vendor A', 'CANCELLED'],
      [main, 'Vendor A', 'PENDING'],
    ];
    for (const [i, [warehouse, vendor, status]] of specs.entries()) {
      clock.advance(60_000);
      s.push(
        await createShipment(
          t,
          seed.sellerToken,
          shipmentBody(warehouse, 'SKU-1', { vendor_name: vendor, status, purchase_order_number: `PO-${i + 1}`, create_new_products: true }),
        ),
      );
    }
    clock.advance(60_000);
    const res = await shipmentAction(t, seed.sellerToken, s[0]!.id, 'ship', { tracking: 'T-1' });
    assert.equal(res.statusCode, 200, res.body);
    shippedFirst = res.json() as ShipmentRecord;
    await createShipment(t, other.sellerToken, shipmentBody(other.warehouses.main, 'SKU-1', { create_new_products: true }));
  });
  after(async () => t.close());

  const ids = async (query: string, token = seed.sellerToken) => {
    const res = await listShipments(t, token, query);
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json() as ShipmentPage;
    return page.results.map((r) => r.id);
  };
  const id = (i: number) => s[i]!.id;

  it('lists the account\'s shipments least recently updated first, as full records; another account\'s never', async () => {
    const res = await listShipments(t, seed.sellerToken);
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json() as ShipmentPage;
    assert.deepEqual(page.results.map((r) => r.id), [id(1), id(2), id(3), id(4), id(0)]);
    assert.deepEqual(page.results[4], shippedFirst, 'the record GET answers');
    assert.deepEqual(page.results[0], s[1]);
    assert.deepEqual(page.pagination, { hasNext: false, nextToken: '' });
    assert.equal((await ids('', other.sellerToken)).length, 1);
  });

  it('status: one, comma-separated, repeated keys', async () => {
    assert.deepEqual(await ids('?status=PENDING'), [id(2), id(4)]);
    assert.deepEqual(await ids('?status=PENDING,SHIPPED'), [id(1), id(2), id(4), id(0)]);
    assert.deepEqual(await ids('?status=PENDING&status=CANCELLED'), [id(2), id(3), id(4)]);
    assert.deepEqual(await ids('?status=RECEIVED,PARTIALLY_RECEIVED'), []);
  });

  it('status: an unknown value is a 400 listing the allowed ones (statuses are upper case)', async () => {
    assertV1Error(await listShipments(t, seed.sellerToken, '?status=PENDING,LOST'), 400, /status: "LOST" is not a status; allowed: PENDING, SHIPPED, RECEIVED, PARTIALLY_RECEIVED, CANCELLED/);
    assertV1Error(await listShipments(t, seed.sellerToken, '?status=pending'), 400, /"pending"/);
  });

  it('warehouseId and warehouses: either name, comma-separated or repeated, or both', async () => {
    const { main, second } = seed.warehouses;
    assert.deepEqual(await ids(`?warehouseId=${main}`), [id(2), id(4), id(0)]);
    assert.deepEqual(await ids(`?warehouses=${second}`), [id(1), id(3)]);
    assert.deepEqual(await ids(`?warehouses=${main},${second}`), [id(1), id(2), id(3), id(4), id(0)]);
    assert.deepEqual(await ids(`?warehouseId=${main}&warehouseId=${second}`), [id(1), id(2), id(3), id(4), id(0)]);
    assert.deepEqual(await ids(`?warehouseId=${main}&warehouses=${second}`), [id(1), id(2), id(3), id(4), id(0)]);
    assert.deepEqual(await ids(`?warehouses=${seed.warehouses.channel}`), []);
  });

  it('warehouse filters: an unknown id, another account\'s, or not a number is a 400', async () => {
    assertV1Error(await listShipments(t, seed.sellerToken, '?warehouseId=2147483647'), 400, /warehouseId: unknown warehouse id 2147483647/);
    assertV1Error(await listShipments(t, seed.sellerToken, `?warehouses=${other.warehouses.main}`), 400, new RegExp(`warehouses: unknown warehouse id ${other.warehouses.main}`));
    assertV1Error(await listShipments(t, seed.sellerToken, '?warehouses=main'), 400, /warehouses: "main" is not a whole number/);
  });

  it('vendorId; an unknown or another account\'s vendor, or not a number, is a 400', async () => {
    assert.deepEqual(await ids(`?vendorId=${s[0]!.vendor.vendorId}`), [id(3), id(4), id(0)]);
    assert.deepEqual(await ids(`?vendorId=${s[1]!.vendor.vendorId}&status=PENDING`), [id(2)]);
    assertV1Error(await listShipments(t, seed.sellerToken, '?vendorId=2147483647'), 400, /vendorId: vendor 2147483647 not found in this account/);
    const theirs = (await listShipments(t, other.sellerToken)).json() as ShipmentPage;
    assertV1Error(await listShipments(t, seed.sellerToken, `?vendorId=${theirs.results[0]!.vendor.vendorId}`), 400, /not found in this account/);
    assertV1Error(await listShipments(t, seed.sellerToken, '?vendorId=acme'), 400, /vendorId/);
  });

  it('updatedSince (inclusive) and its alias lastUpdatedTs; offsets work; no zone is a 400', async () => {
    const since = s[2]!.updated_at;
    assert.deepEqual(await ids(`?updatedSince=${encodeURIComponent(since)}`), [id(2), id(3), id(4), id(0)]);
    assert.deepEqual(await ids(`?lastUpdatedTs=${encodeURIComponent(since)}`), [id(2), id(3), id(4), id(0)]);
    assert.deepEqual(await ids(`?updatedSince=${encodeURIComponent(since)}&lastUpdatedTs=${encodeURIComponent(since)}`), [id(2), id(3), id(4), id(0)]);
    // The same instant written with an offset, its '+' left unencoded (a space once decoded).
    const offset = new Date(Date.parse(since) + 3_600_000).toISOString().replace('.000Z', '+01:00');
    assert.deepEqual(await ids(`?updatedSince=${offset}`), [id(2), id(3), id(4), id(0)]);
    assert.deepEqual(await ids(`?updatedSince=${encodeURIComponent(shippedFirst.updated_at)}`), [id(0)]);
    assertV1Error(await listShipments(t, seed.sellerToken, '?updatedSince=2026-11-01T09:00:00'), 400, /updatedSince: .*not an RFC 3339 timestamp with a time zone/);
    assertV1Error(await listShipments(t, seed.sellerToken, '?lastUpdatedTs=yesterday'), 400, /lastUpdatedTs/);
    assertV1Error(
      await listShipments(t, seed.sellerToken, `?updatedSince=${encodeURIComponent(since)}&lastUpdatedTs=2026-01-01T00:00:00Z`),
      400,
      /lastUpdatedTs: is another name for updatedSince/,
    );
  });

  it('purchaseOrderNumber matches exactly', async () => {
    assert.deepEqual(await ids('?purchaseOrderNumber=PO-3'), [id(2)]);
    assert.deepEqual(await ids('?purchaseOrderNumber=PO'), []);
    assert.deepEqual(await ids('?purchaseOrderNumber=po-3'), []);
    assertV1Error(await listShipments(t, seed.sellerToken, `?purchaseOrderNumber=${'x'.repeat(256)}`), 400, /purchaseOrderNumber/);
  });

  it('pageLength outside 1..100, or not a number, is a 400', async () => {
    for (const value of ['0', '101', '-1', 'ten', '2.5']) assertV1Error(await listShipments(t, seed.sellerToken, `?pageLength=${value}`), 400, /pageLength/);
  });

  it('pages of 2: nothing skipped or repeated; nextToken is an absolute URL that overrides every other parameter', async () => {
    const first = (await listShipments(t, seed.sellerToken, '?pageLength=2')).json() as ShipmentPage;
    assert.equal(first.results.length, 2);
    assert.equal(first.pagination.hasNext, true);
    assert.match(first.pagination.nextToken, /^http:\/\/localhost(:\d+)?\/v1\/inbound-shipment\?nextToken=/);
    const seen = first.results.map((r) => r.id);
    let url = first.pagination.nextToken;
    let pages = 1;
    while (url !== '') {
      // Parameters sent again beside the token, even invalid ones, are ignored.
      const res = await listShipments(t, seed.sellerToken, `${new URL(url).search}&pageLength=0&status=LOST&warehouseId=abc`);
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json() as ShipmentPage;
      assert.ok(page.results.length <= 2);
      assert.equal(page.pagination.hasNext, page.pagination.nextToken !== '');
      seen.push(...page.results.map((r) => r.id));
      url = page.pagination.nextToken;
      pages++;
    }
    assert.equal(pages, 3);
    assert.deepEqual(seen, [id(1), id(2), id(3), id(4), id(0)]);
  });

  it('the filters ride in the nextToken', async () => {
    const seen: number[] = [];
    let query = `?status=PENDING,SHIPPED&warehouseId=${seed.warehouses.main}&pageLength=1`;
    for (;;) {
      const page = (await listShipments(t, seed.sellerToken, query)).json() as ShipmentPage;
      seen.push(...page.results.map((r) => r.id));
      if (page.pagination.nextToken === '') break;
      query = new URL(page.pagination.nextToken).search;
    }
    assert.deepEqual(seen, [id(2), id(4), id(0)]);
  });

  it('a tampered nextToken, or one of another access token (even of the same account), is a 400 invalid nextToken', async () => {
    const first = (await listShipments(t, seed.sellerToken, '?pageLength=2')).json() as ShipmentPage;
    const token = new URL(first.pagination.nextToken).searchParams.get('nextToken')!;
    const flipped = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`;
    assertV1Error(await listShipments(t, seed.sellerToken, `?nextToken=${encodeURIComponent(flipped)}`), 400, /invalid nextToken/);
    assertV1Error(await listShipments(t, seed.sellerToken, '?nextToken=garbage'), 400, /invalid nextToken/);
    const { accessToken: otherSeller } = await issueAdHocToken(t.deps.db.db, seed.accountId, ['legacy'], clock.now());
    assertV1Error(await listShipments(t, otherSeller, new URL(first.pagination.nextToken).search), 400, /invalid nextToken/);
    // Nor does another route take it.
    assertV1Error(await t.app.inject({ url: `/v1/vendor${new URL(first.pagination.nextToken).search}`, headers: { authorization: seed.sellerToken } }), 400, /invalid nextToken/);
  });

  it('rows updated at the same instant page by id, none skipped', async () => {
    const t2 = await createTestApp({ clock: manualClock(new Date('2026-11-05T00:00:00.000Z')) });
    try {
      const acct = await seedAccount(t2, 'Ties');
      const made: number[] = [];
      for (let i = 0; i < 5; i++) {
        made.push((await createShipment(t2, acct.sellerToken, shipmentBody(acct.warehouses.main, 'T', { create_new_products: true, purchase_order_number: `T-${i}` }))).id);
      }
      const seen: number[] = [];
      let query = '?pageLength=2';
      for (;;) {
        const page = (await listShipments(t2, acct.sellerToken, query)).json() as ShipmentPage;
        seen.push(...page.results.map((r) => r.id));
        if (page.pagination.nextToken === '') break;
        query = new URL(page.pagination.nextToken).search;
      }
      assert.deepEqual(seen, made);
    } finally {
      await t2.close();
    }
  });

  it('an inventory:self token lists only shipments bound for its mapped warehouses; naming another warehouse is a 400', async () => {
    const page = (await listShipments(t, seed.inventory.token)).json() as ShipmentPage;
    assert.deepEqual(page.results.map((r) => r.id), [id(1), id(3)]);
    for (const r of page.results) assert.deepEqual(r.warehouse, { warehouseId: seed.warehouses.second, name: 'Second', warehouseUniqueId: 'WH-SECOND' });
    assert.deepEqual(await ids(`?warehouseId=${seed.warehouses.second}&status=SHIPPED`, seed.inventory.token), [id(1)]);
    assertV1Error(await listShipments(t, seed.inventory.token, `?warehouseId=${seed.warehouses.main}`), 400, /warehouseId: warehouse \d+ is not mapped to this token's integration/);
    // Paging keeps the narrowing.
    const first = (await listShipments(t, seed.inventory.token, '?pageLength=1')).json() as ShipmentPage;
    const second = (await listShipments(t, seed.inventory.token, new URL(first.pagination.nextToken).search)).json() as ShipmentPage;
    assert.deepEqual([...first.results, ...second.results].map((r) => r.id), [id(1), id(3)]);
    assert.equal(second.pagination.nextToken, '');
  });
});
