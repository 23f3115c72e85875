import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { issueAdHocToken } from '../../src/domain/accounts/oauth.js';
import type { Scope } from '../../src/domain/accounts/principal.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createListingViaAdmin, sampleListing } from '../helpers/listings.js';
import { assertV1Error, createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

const INVENTORY_SCOPES = /needs one of the scopes: legacy, inventory, inventory:self$/;
const ORDER_SCOPES =
  /needs one of the scopes: legacy, sales, sales:orders, sales:orders:fulfillment:self, sales:orders:inventory:self, sales:orders:self$/;
const LISTING_SCOPES = /needs one of the scopes: legacy, listing:self$/;

/** Scope requirements of every v1 route (document 5.4, resolutions §7); the 403 names the scopes that would do. */
describe('v1 route scopes', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let reportOnly: string;
  let listingId: string;
  let n = 0;

  const token = async (scopes: Scope[]) => (await issueAdHocToken(t.deps.db.db, seed.accountId, scopes, t.deps.clock.now())).accessToken;
  const call = (tok: string, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    t.app.inject({ method, url, headers: bearer(tok), ...(payload === undefined ? {} : { payload: payload as object }) });
  const fresh = async (extra: Record<string, unknown> = {}) => {
    n += 1;
    return createOrder(t, seed.channel.token, orderBody(`SC-${n}`, [{ requestedSku: 'A', quantity: 1 }], extra));
  };
  const orderRow = (orderNumber: string) =>
    t.deps.db.db.selectFrom('sales_orders').selectAll().where('id', '=', Number(orderNumber)).executeTakeFirstOrThrow();
  const available = async (sku: string) => {
    const row = await t.deps.db.db
      .selectFrom('inventory as i')
      .innerJoin('products as p', 'p.id', 'i.product_id')
      .select('i.available_quantity')
      .where('p.sku', '=', sku)
      .where('i.warehouse_id', '=', seed.warehouses.main)
      .executeTakeFirst();
    return row?.available_quantity ?? null;
  };

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    reportOnly = await token(['report']);
    await stock(t, seed.sellerToken, 'A', seed.warehouses.main, 100);
    listingId = (await createListingViaAdmin(t, seed, sampleListing('G-1', ['A']))).id;
  });
  after(async () => t.close());

  it('a report-only token cannot change stock: POST /v1/inventory is a 403 naming the scopes, nothing changes', async () => {
    const res = await call(reportOnly, 'POST', '/v1/inventory', { products: [{ SKU: 'A', warehouseId: seed.warehouses.main, quantity: 1 }] });
    assertV1Error(res, 403, INVENTORY_SCOPES);
    const created = await call(reportOnly, 'POST', '/v1/inventory', { products: [{ SKU: 'NEW', warehouseId: seed.warehouses.main, quantity: 1 }] });
    assertV1Error(created, 403, INVENTORY_SCOPES);
    assert.equal(await available('A'), 100);
    assert.equal(await available('NEW'), null);
  });

  it('a report-only token gets 403 on every v1 sales order write, and nothing changes', async () => {
    const pending = await fresh();
    const unpaid = await fresh({ status: 'PENDING_PAYMENT' });
    const writes: [string, unknown][] = [
      ['/v1/salesOrder', orderBody('SC-REPORT', [{ requestedSku: 'A', quantity: 1 }], { channel: 'Web' })],
      [`/v1/salesOrder/accept/${pending.orderNumber}`, undefined],
      [`/v1/salesOrder/markPaid/${unpaid.orderNumber}`, undefined],
      [`/v1/salesOrder/cancel/${pending.orderNumber}`, { cancellationReason: 'test' }],
      [
        '/v1/salesOrder/shipments',
        {
          packages: [
            {
              orderNumber: pending.orderNumber,
              fulfillmentPackageId: 'P1',
              warehouseId: seed.warehouses.main,
              carrier: 'UPS',
              tracking: '1Z',
              service_level: 'Ground',
              products: [{ sku: 'A', quantity: 1 }],
            },
          ],
        },
      ],
    ];
    for (const [url, payload] of writes) assertV1Error(await call(reportOnly, 'POST', url, payload), 403, ORDER_SCOPES);
    // confirmStatus keeps the document's own label (4.6: sales:orders:self).
    const confirm = await call(reportOnly, 'POST', `/v1/salesOrder/${pending.orderNumber}/confirmStatus`, { status: 'PENDING', lineItems: [] });
    assertV1Error(confirm, 403, /needs one of the scopes: sales:orders:self$/);

    const p = await orderRow(pending.orderNumber);
    assert.equal(p.status, 'PENDING');
    assert.equal(p.accepted_ts, null);
    assert.equal((await orderRow(unpaid.orderNumber)).status, 'PENDING_PAYMENT');
    assert.equal((await t.deps.db.db.selectFrom('sales_orders').select('id').where('channel_order_id', '=', 'SC-REPORT').execute()).length, 0);
    assert.equal((await t.deps.db.db.selectFrom('sales_order_packages').select('id').execute()).length, 0);
    assert.equal((await t.deps.db.db.selectFrom('sales_order_status_confirmations').selectAll().execute()).length, 0);
    assert.equal(await available('A'), 98, 'the two orders reserved one unit each; nothing else moved');
  });

  it('a report-only token gets 403 on the v1 listing writes, and the variant keeps its status', async () => {
    const status = await call(reportOnly, 'POST', '/v1/listing/status', { listing_id: listingId, sku: 'A', status: 'PUBLISHED', listing_url: 'https://x' });
    assertV1Error(status, 403, LISTING_SCOPES);
    assertV1Error(
      await call(reportOnly, 'POST', '/v1/listing/submissions/1/inventoryDetails', { inventoryLevelSent: 1, successful: true }),
      403,
      /needs one of the scopes: listing:self$/,
    );
    const variant = await t.deps.db.db.selectFrom('listing_variants').selectAll().where('sku', '=', 'A').executeTakeFirstOrThrow();
    assert.equal(variant.status, '', 'no status was reported');
  });

  it('a report-only token gets 403 on every v1 read except GET /v1/warehouses', async () => {
    const order = await fresh();
    for (const url of ['/v1/inventory?skus=A', '/v1/inventory/A', '/v1/simpleInventory/A']) {
      assertV1Error(await call(reportOnly, 'GET', url), 403, INVENTORY_SCOPES);
    }
    for (const url of ['/v1/salesOrder', `/v1/salesOrder/${order.orderNumber}`]) {
      assertV1Error(await call(reportOnly, 'GET', url), 403, ORDER_SCOPES);
    }
    for (const url of ['/v1/listing', `/v1/listing/${listingId}`]) {
      assertV1Error(await call(reportOnly, 'GET', url), 403, LISTING_SCOPES);
    }
    const warehouses = await call(reportOnly, 'GET', '/v1/warehouses');
    assert.equal(warehouses.statusCode, 200, warehouses.body);
  });

  it('a token with one of the named scopes still works', async () => {
    const legacy = await token(['legacy']);
    for (const scopes of [['legacy'], ['inventory']] as Scope[][]) {
      const tok = await token(scopes);
      const res = await call(tok, 'POST', '/v1/inventory', { products: [{ SKU: 'B', warehouseId: seed.warehouses.main, delta_quantity: 1 }] });
      assert.equal(res.statusCode, 200, `${scopes.join()}: ${res.body}`);
      assert.equal((res.json() as { results: { success: boolean }[] }).results[0]?.success, true);
      assert.equal((await call(tok, 'GET', '/v1/simpleInventory/B')).statusCode, 200);
    }
    assert.equal(await available('B'), 2);

    const created = await call(legacy, 'POST', '/v1/salesOrder', orderBody('SC-LEGACY', [{ requestedSku: 'A', quantity: 1 }], { channel: 'Web' }));
    assert.equal(created.statusCode, 200, created.body);
    const order = created.json() as Order;
    for (const scopes of [['legacy'], ['sales'], ['sales:orders']] as Scope[][]) {
      const tok = await token(scopes);
      const accepted = await call(tok, 'POST', `/v1/salesOrder/accept/${order.orderNumber}`);
      assert.equal(accepted.statusCode, 200, `${scopes.join()}: ${accepted.body}`);
      assert.equal((await call(tok, 'GET', `/v1/salesOrder/${order.orderNumber}`)).statusCode, 200);
    }
    // The storefront's own token (sales:orders:self, listing:self) keeps working on its own order and listings.
    const own = await fresh();
    assert.equal((await call(seed.channel.token, 'POST', `/v1/salesOrder/accept/${own.orderNumber}`)).statusCode, 200);
    for (const tok of [legacy, await token(['listing:self']), seed.channel.token]) {
      const listing = await call(tok, 'GET', `/v1/listing/${listingId}`);
      assert.equal(listing.statusCode, 200, listing.body);
    }
    const status = await call(legacy, 'POST', '/v1/listing/status', { listing_id: listingId, sku: 'A', status: 'PUBLISHED', listing_url: 'https://x' });
    assert.equal(status.statusCode, 200, status.body);
  });
});
