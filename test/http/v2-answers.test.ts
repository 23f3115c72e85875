import assert from 'node:assert/strict';
import { AssertionError } from 'node:assert';
import type { LightMyRequestResponse } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { createFullSandbox, type FullSandbox } from '../../src/cli/sandbox.js';
import type { SandboxApp } from '../../src/domain/sandbox-partner/sandbox.js';
import type { ListingView } from '../../src/domain/listings/model.js';
import { withTx } from '../../src/db/tx.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer } from '../helpers/fixtures.js';
import { checkedV2Routes, checkV2Answer } from '../helpers/v2-answer-check.js';
import { createOrder, stock, type Order } from './v1-sales-orders-helpers.js';

/**
 * Issue 25 item 1: every v2 answer is checked against its route's closed response schema by the wrapper
 * createTestApp installs (test/helpers/v2-answer-check.ts). This file makes sure that check meets a real
 * answer of every v2 route of the served document: it drives each one to a 2xx answer over a full sandbox
 * with data in interesting states (nested objects, scheduled sales, errors, acknowledgements, shipments,
 * cancellations, rejections, alerts), then asserts the checker recorded every route. A new v2 route fails
 * the last test until this file gives it an answer.
 */

const PT = '/v2/storefront/taxonomy/product_type';
const SPEC = '/v2/storefront/taxonomy/attribute_spec';
const LISTING = '/v2/storefront/listing';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe('every v2 route answers real data that matches its closed response schema', () => {
  let t: TestApp;
  let sandbox: FullSandbox;
  let storefront: SandboxApp;
  let shipping: SandboxApp;
  let inventoryApp: SandboxApp;
  let thirdParty: SandboxApp;
  let listing: ListingView;

  /** Calls a v2 route and asserts a 2xx answer (the wrapper has then validated it against the schema). */
  async function ok(app: SandboxApp, method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse> {
    const res = await t.app.inject({ method, url, headers: bearer(app.accessToken), ...(payload === undefined ? {} : { payload: payload as object }) });
    assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res;
  }
  /** A list answer's items, asserted non-empty so the schema met real entries. */
  function nonEmpty<T>(items: T[] | undefined, what: string): T[] {
    assert.ok(Array.isArray(items) && items.length > 0, `${what} is empty`);
    return items;
  }
  /** A batch answer whose every entry succeeded. */
  function allSucceeded(res: LightMyRequestResponse): { fulfillmentOrderId: string }[] {
    const results = (res.json() as { results: { success: boolean; errorMessage: string; fulfillmentOrderId: string }[] }).results;
    nonEmpty(results, 'results');
    for (const r of results) assert.ok(r.success, r.errorMessage);
    return results;
  }
  const appOf = (kind: SandboxApp['kind']) => sandbox.summary.apps.find((a) => a.kind === kind)!;
  const warehouseOf = (key: 'main' | 'east' | 'marketplace' | 'west3pl') => sandbox.summary.warehouses.find((w) => w.key === key)!.warehouseId;

  interface Fo {
    fulfillmentOrderId: string;
    orderNumber: string;
    status: string;
  }
  async function foOf(orderNumber: string): Promise<Fo> {
    const res = await ok(shipping, 'GET', '/v2/shipping/need_to_ship?pageSize=500');
    const found = (res.json() as { orders: Fo[] }).orders.filter((o) => o.orderNumber === orderNumber);
    assert.equal(found.length, 1, `one fulfillment order for ${orderNumber}`);
    return found[0]!;
  }
  let orderCount = 0;
  async function order(lines: { sku: string; quantity: number }[]): Promise<Order> {
    orderCount += 1;
    const channelOrderId = `V2A-${orderCount}`;
    const address = { name: 'Mary Somerville', addressLine1: '1 Orbit Lane', city: 'Denver', state: 'CO', postalCode: '80202', countryCode: 'US' };
    return createOrder(t, storefront.accessToken, {
      channelOrderId,
      orderTs: new Date(t.deps.clock.now().getTime() - 60_000).toISOString(),
      customerName: 'Mary Somerville',
      customerEmail: 'mary@example.com',
      requestedServiceLevel: 'Standard',
      shippingAddress: address,
      billingAddress: address,
      products: lines.map((l, i) => ({
        requestedSku: l.sku,
        quantity: l.quantity,
        channelLineItemId: `${channelOrderId}-${i + 1}`,
        title: `Item ${l.sku}`,
        unitPrice: 12.5,
      })),
    });
  }

  before(async () => {
    t = await createTestApp();
    sandbox = await withTx(t.deps.db.db, (tx) => createFullSandbox(tx, t.deps.signer, t.deps.clock.now(), 'v2 answers sandbox'));
    storefront = appOf('SALES_CHANNEL');
    shipping = appOf('SHIPPING');
    inventoryApp = appOf('INVENTORY');
    thirdParty = appOf('THIRD_PARTY_LOGISTICS');
    assert.ok(sandbox.listing, 'the sandbox has a listing');
    // Stock at Main for the listing made below and the orders placed on it.
    for (const [sku, quantity] of [['V2A-CUP-S', 60], ['V2A-CUP-L', 30]] as const) await stock(t, sandbox.summary.sellerToken.accessToken, sku, warehouseOf('main'), quantity);
  });
  after(async () => t.close());

  it('serves the OpenAPI document the routes are read from', async () => {
    const res = await t.app.inject({ url: '/openapi.json' });
    assert.equal(res.statusCode, 200, res.body);
  });

  it('taxonomy: product types, attribute specs (a TYPE_MULTI_OBJECT with objectFieldSpecs among them) and their deletes', async () => {
    await ok(storefront, 'POST', PT, { productType: { productTypeId: 'mug', displayName: 'Mugs', description: 'Drinkware' } });
    await ok(storefront, 'POST', PT, { productType: { productTypeId: 'cup', displayName: 'Cups' } });
    await ok(storefront, 'POST', PT, { productType: { productTypeId: 'retired', displayName: 'Retired' } });
    assert.deepEqual((await ok(storefront, 'DELETE', `${PT}/retired`)).json(), {});
    const types = nonEmpty((await ok(storefront, 'GET', PT)).json().productTypes as { productTypeId: string }[], 'productTypes');
    assert.deepEqual(types.map((p) => p.productTypeId).sort(), ['cup', 'mug']);

    await ok(storefront, 'PUT', `${SPEC}/cup`, {
      attributeSpec: {
        attributeSpecId: 'color',
        displayName: 'Colour',
        type: 'TYPE_SELECT',
        validValues: ['white', 'black'],
        level: 'LEVEL_VARIANT',
        classification: 'CLASSIFICATION_PRODUCT',
        usage: 'USAGE_REQUIRED',
        description: 'The glaze colour',
        examples: ['white'],
        maxUniqueItems: '1',
        suggestedValues: ['white'],
      },
    });
    const care = await ok(storefront, 'POST', `${SPEC}/cup`, {
      attributeSpec: {
        attributeSpecId: 'care',
        displayName: 'Care steps',
        type: 'TYPE_MULTI_OBJECT',
        objectSpec: { step: 'TYPE_SELECT', temperature: 'TYPE_NUMERIC_WITH_UNITS', note: 'TYPE_TEXT' },
        objectFieldSpecs: { step: { type: 'TYPE_SELECT', validValues: ['wash', 'dry'] }, temperature: { type: 'TYPE_NUMERIC_WITH_UNITS', validUnits: ['C', 'F'] } },
        level: 'LEVEL_LISTING',
        usage: 'USAGE_RECOMMENDED',
        maxUniqueItems: 4,
      },
    });
    assert.equal(care.json().type, 'TYPE_MULTI_OBJECT');
    await ok(storefront, 'PUT', `${SPEC}/cup/material`, { attributeSpec: { displayName: 'Material', type: 'TYPE_TEXT', level: 'LEVEL_LISTING' } });
    await ok(storefront, 'POST', `${SPEC}/cup`, { attributeSpec: { attributeSpecId: 'obsolete', type: 'TYPE_TEXT' } });
    assert.deepEqual((await ok(storefront, 'DELETE', `${SPEC}/cup/obsolete`)).json(), {});

    const read = (await ok(storefront, 'GET', `${SPEC}/cup/care`)).json();
    assert.deepEqual(Object.keys(read.objectFieldSpecs as object).sort(), ['step', 'temperature']);
    const specs = (await ok(storefront, 'GET', `${SPEC}/cup`)).json();
    assert.deepEqual(
      nonEmpty(specs.attributeSpecs as { attributeSpecId: string }[], 'attributeSpecs')
        .map((s) => s.attributeSpecId)
        .sort(),
      ['care', 'color', 'material'],
    );

    await ok(storefront, 'POST', `${LISTING}/valid_values`, { specId: 'color', validValues: ['white', 'black', 'speckled'] });
    const values = (await ok(storefront, 'GET', `${LISTING}/valid_values?specIds=color`)).json();
    assert.deepEqual(values.specIdToValidValues.color.validValues, ['white', 'black', 'speckled']);
  });

  const inDays = (days: number) => new Date(t.deps.clock.now().getTime() + days * 86_400_000).toISOString();

  it('listings: reads and polls over a listing with a nested multiObjectValue, a scheduled sale, channel ids, a status and errors', async () => {
    const created = await admin(t, 'POST', `/admin/accounts/${sandbox.summary.account.accountId}/listings`, {
      storefrontId: storefront.storefrontId,
      sku: 'V2A-CUP',
      productData: {
        categoryId: 'kitchen/cups',
        productTypeId: 'cup',
        pivotAttributes: ['color'],
        attributes: [
          { id: 'title', textValue: 'Porcelain cup' },
          { id: 'material', textValue: 'porcelain' },
          { id: 'tags', multiTextValue: { values: ['tea', 'gift'] } },
          { id: 'weight', numericWithUnitsValue: { numeric: 0.3, units: 'kg' } },
          { id: 'msrp', moneyValue: { amount: '19.99', currencyCode: 'USD' } },
          {
            id: 'care',
            multiObjectValue: {
              items: [
                {
                  properties: {
                    step: { textValue: 'wash' },
                    temperature: { numericWithUnitsValue: { numeric: 40, units: 'C' } },
                    parts: { multiObjectValue: { items: [{ properties: { part: { textValue: 'handle' }, count: { numericValue: 1 } } }] } },
                  },
                },
                { properties: { step: { textValue: 'dry' } } },
              ],
            },
          },
        ],
      },
      variants: [
        {
          sku: 'V2A-CUP-S',
          channelId: 'CH-CUP-S',
          inventory: { enabled: true },
          productData: { attributes: [{ id: 'color', textValue: 'white' }] },
          pricing: {
            attributes: [{ id: 'price', moneyValue: { amount: '10.00', currencyCode: 'USD' } }],
            sales: [
              { salePrice: 8, strikeThroughPrice: 10, startAt: inDays(5), endAt: inDays(28) },
              { salePrice: 9 },
            ],
          },
        },
        {
          sku: 'V2A-CUP-L',
          channelId: 'CH-CUP-L',
          inventory: { enabled: true },
          productData: { attributes: [{ id: 'color', textValue: 'black' }] },
          pricing: { attributes: [{ id: 'price', moneyValue: { amount: '14.00', currencyCode: 'USD' } }] },
        },
      ],
    });
    assert.equal(created.statusCode, 201, created.body);
    listing = created.json() as ListingView;

    // The variants' writes: a full status, a new channel id, errors of two kinds.
    assert.deepEqual(
      (
        await ok(storefront, 'POST', `${LISTING}/variant/V2A-CUP-S/status`, {
          status: 'STANDARD_STATUS_PUBLISHED',
          channelStatus: 'Active',
          listingUrl: 'https://channel.example/cup-s',
          buyable: true,
          channelListingId: 'L-CUP-S',
        })
      ).json(),
      {},
    );
    assert.deepEqual((await ok(storefront, 'POST', `${LISTING}/variant/V2A-CUP-L/channel_id`, { channelId: 'CH-CUP-L2' })).json(), {});
    assert.deepEqual(
      (
        await ok(storefront, 'POST', `${LISTING}/variant/V2A-CUP-S/errors`, {
          submissionType: 'product',
          errors: [
            { attributeIds: ['title'], severity: 'SEVERITY_ERROR', type: 'TYPE_INVALID_VALUE', message: 'too long' },
            { attributeIds: ['care'], severity: 'SEVERITY_WARNING', type: 'TYPE_TOO_MANY_VALUES', message: 'care: 2 > 1' },
          ],
        })
      ).json(),
      {},
    );

    const byId = (await ok(storefront, 'GET', `${LISTING}/${listing.id}`)).json();
    assert.equal(byId.sku, 'V2A-CUP');
    const care = (byId.productData.attributes as { id: string; multiObjectValue?: { items: unknown[] } }[]).find((a) => a.id === 'care');
    assert.equal(care?.multiObjectValue?.items.length, 2);
    const bySku = (await ok(storefront, 'GET', `${LISTING}/sku/V2A-CUP`)).json();
    assert.equal(bySku.id, listing.id);
    const variant = (await ok(storefront, 'GET', `${LISTING}/variant/V2A-CUP-S`)).json();
    nonEmpty(variant.pricing.sales as unknown[], 'the variant’s scheduled sales');
    // The errors are not part of the channel's variant message; they are stored for the seller's console.
    nonEmpty(await t.deps.db.db.selectFrom('listing_variant_errors').select('id').execute(), 'stored variant errors');
    // Nor is the status: the channel reported it, the seller's console shows it.
    const stored = await t.deps.db.db.selectFrom('listing_variants').select(['status', 'channel_id']).where('sku', '=', 'V2A-CUP-S').executeTakeFirstOrThrow();
    assert.deepEqual(stored, { status: 'STANDARD_STATUS_PUBLISHED', channel_id: 'CH-CUP-S' });
    const category = (await ok(storefront, 'GET', `${LISTING}/sku/V2A-CUP-S/category`)).json();
    assert.equal(category.categoryId, 'kitchen/cups');

    // The sandbox's own listing has no channel ids: it is new.
    nonEmpty((await ok(storefront, 'GET', `${LISTING}/new`)).json().listings as unknown[], 'new listings');
    nonEmpty((await ok(storefront, 'GET', `${LISTING}/product_data/updated`)).json().listings as unknown[], 'updated listings');
    nonEmpty((await ok(storefront, 'GET', `${LISTING}/variant/inventory/updated`)).json().variants as unknown[], 'inventory-updated variants');
    nonEmpty((await ok(storefront, 'GET', `${LISTING}/variant/pricing/updated`)).json().variants as unknown[], 'pricing-updated variants');
    nonEmpty((await ok(storefront, 'GET', `${LISTING}/variant/inventory/updated/skus`)).json().skus as string[], 'inventory-updated skus');
    const drift = (await ok(storefront, 'GET', `${LISTING}/variant/inventory/drift/skus?stableFor=0s`)).json();
    nonEmpty(drift.skus as string[], 'drifting skus');
    nonEmpty(drift.driftListings as unknown[], 'drift listings');
  });

  it('submissions naming attribute versions, an inventory send, an update; an ingestion begun, fed and ended', async () => {
    const title = listing.productData.attributes.find((a) => a.id === 'title')!;
    const color = listing.variants[0]!.productData.attributes.find((a) => a.id === 'color')!;
    const price = listing.variants[0]!.pricing.attributes.find((a) => a.id === 'price')!;
    const created = (
      await ok(storefront, 'POST', `${LISTING}/submission`, {
        submissions: [
          {
            sku: 'V2A-CUP-S',
            type: 'product',
            contentSent: '{"title":"Porcelain cup"}',
            metadata: { feedId: 'F-1' },
            successful: true,
            submittedAttributeVersionIds: [title.versionId, color.versionId],
            preparedAt: '2026-11-21T10:00:00Z',
            submittedAt: '2026-11-21T10:01:00Z',
            acknowledgedAt: '2026-11-21T10:02:00Z',
          },
          { sku: 'V2A-CUP-S', type: 'price', submittedAttributeVersionIds: [price.versionId] },
          { sku: 'V2A-CUP-L', type: 'inventory', contentSent: '{"quantity":3}' },
        ],
      })
    ).json() as { submissions: { submissionId: string; type: string; submittedAttributeVersionIds: string[] }[] };
    assert.equal(nonEmpty(created.submissions, 'submissions').length, 3);
    assert.deepEqual(created.submissions[0]!.submittedAttributeVersionIds, [title.versionId, color.versionId]);
    const inventorySubmission = created.submissions.find((s) => s.type === 'inventory')!;
    assert.deepEqual(
      (await ok(storefront, 'POST', `${LISTING}/submission/${inventorySubmission.submissionId}/inventory`, { inventoryLevelSent: '3', successful: true })).json(),
      {},
    );
    const updated = (
      await ok(storefront, 'PUT', `${LISTING}/submission/product/V2A-CUP-S`, {
        contentReceived: '{"accepted":true}',
        metadata: { channelRef: 'R-1' },
        status: 'STATUS_ACCEPTED',
        changedAt: '2026-11-21T10:05:00Z',
      })
    ).json();
    assert.equal(updated.contentReceived, '{"accepted":true}');

    assert.deepEqual((await ok(storefront, 'POST', `${LISTING}/ingestion/begin`, { expectedNumListings: '1', autoApplyIngestionPlan: false })).json(), {});
    await ok(storefront, 'POST', `${LISTING}/ingestion/request`, {
      id: 'ING-TEAPOT',
      productTypeId: 'mug',
      pivotAttributes: ['color'],
      attributes: [
        { id: 'title', textValue: 'Teapot' },
        { id: 'care', multiObjectValue: { items: [{ properties: { step: { textValue: 'wash' } } }] } },
      ],
      variants: [
        { sku: 'ING-TEAPOT-W', channelId: 'CH-TP-W', price: { amount: '24.50', currencyCode: 'USD' }, attributes: [{ id: 'color', textValue: 'white' }] },
        { sku: 'ING-TEAPOT-B', price: { currencyCode: 'USD', units: '25', nanos: 0 }, attributes: [{ id: 'color', textValue: 'black' }] },
      ],
    });
    await ok(storefront, 'POST', `${LISTING}/ingestion/end`, { actualNumListings: '1' });
  });

  it('orders: acknowledged, shipped, cancelled through CancelItems and confirmed, rejected, alerted and resolved', async () => {
    const toShip = await order([
      { sku: 'V2A-CUP-S', quantity: 2 },
      { sku: 'V2A-CUP-L', quantity: 1 },
    ]);
    const toCancel = await order([{ sku: 'V2A-CUP-S', quantity: 3 }]);
    const toReject = await order([{ sku: 'V2A-CUP-L', quantity: 1 }]);

    const queue = (await ok(shipping, 'GET', '/v2/shipping/need_to_ship?pageSize=500')).json() as { orders: Fo[] };
    nonEmpty(queue.orders, 'need_to_ship');
    const shipFo = await foOf(toShip.orderNumber);
    const cancelFo = await foOf(toCancel.orderNumber);
    const rejectFo = await foOf(toReject.orderNumber);

    allSucceeded(
      await ok(shipping, 'POST', '/v2/shipping/fulfillment_orders/acknowledge', {
        acknowledgements: [
          { fulfillmentOrderId: shipFo.fulfillmentOrderId, externalOrderId: 'WMS-1' },
          { fulfillmentOrderId: cancelFo.fulfillmentOrderId, externalOrderId: 'WMS-2' },
          { fulfillmentOrderId: rejectFo.fulfillmentOrderId, externalOrderId: 'WMS-3' },
        ],
      }),
    );

    // An alert on the order to ship, seen on the fulfillment order and in the status, then resolved.
    const line = toShip.products[0]!.lineItemId;
    allSucceeded(
      await ok(shipping, 'POST', '/v2/shipping/fulfillment_orders/alerts', {
        alerts: [
          { fulfillmentOrderId: shipFo.fulfillmentOrderId, type: 'ALERT_TYPE_LATE_SHIPMENT', message: 'carrier delay', lineItemId: line },
          { fulfillmentOrderId: shipFo.fulfillmentOrderId, type: 'ALERT_TYPE_LOST', message: 'one box missing' },
        ],
      }),
    );
    const withAlerts = (await ok(shipping, 'GET', `/v2/shipping/fulfillment_order?fulfillmentOrderId=${shipFo.fulfillmentOrderId}`)).json();
    assert.equal(nonEmpty(withAlerts.openAlerts as unknown[], 'openAlerts').length, 2);
    nonEmpty((await ok(shipping, 'GET', '/v2/shipping/status')).json().checks as unknown[], 'status checks');
    allSucceeded(
      await ok(shipping, 'POST', '/v2/shipping/fulfillment_orders/alerts/resolve', {
        resolutions: [{ fulfillmentOrderId: shipFo.fulfillmentOrderId, type: 'ALERT_TYPE_LATE_SHIPMENT', resolution: 'picked up' }],
      }),
    );

    // Shipped in two parcels, with costs.
    const [small, large] = toShip.products;
    allSucceeded(
      await ok(shipping, 'POST', '/v2/shipping/shipments', {
        shipments: [
          {
            fulfillmentOrderId: shipFo.fulfillmentOrderId,
            externalShipmentId: 'PARCEL-1',
            carrier: 'UPS',
            trackingNumber: '1Z001',
            serviceLevel: 'Ground',
            shippedTs: new Date(t.deps.clock.now().getTime() - 1000).toISOString(),
            lines: [{ lineItemId: small!.lineItemId, quantity: 2 }],
            shippingCost: { amount: '5.10', currencyCode: 'USD' },
            handlingCost: { amount: '0.95', currencyCode: 'USD' },
          },
          {
            fulfillmentOrderId: shipFo.fulfillmentOrderId,
            externalShipmentId: 'PARCEL-2',
            carrier: 'USPS',
            trackingNumber: '9400',
            serviceLevel: 'Priority',
            lines: [{ lineItemId: large!.lineItemId, quantity: 1 }],
          },
        ],
      }),
    );

    // The storefront cancels units of an acknowledged order: the shipping partner is asked to confirm.
    assert.deepEqual(
      (
        await ok(storefront, 'POST', '/v2/storefront/orders/cancel', {
          channelOrderId: toCancel.channelOrderId,
          cancelQuantities: { [toCancel.products[0]!.lineItemId]: '2' },
        })
      ).json(),
      {},
    );
    const cancellations = (await ok(shipping, 'GET', '/v2/shipping/need_to_cancel')).json().cancellations as { fulfillmentOrderId: string; lines: unknown[] }[];
    const request = nonEmpty(cancellations, 'need_to_cancel').find((c) => c.fulfillmentOrderId === cancelFo.fulfillmentOrderId);
    assert.ok(request, 'the cancellation is queued');
    nonEmpty(request.lines, 'cancellation lines');
    allSucceeded(await ok(shipping, 'POST', '/v2/shipping/fulfillment_orders/confirm_cancellations', { confirmations: [{ fulfillmentOrderId: cancelFo.fulfillmentOrderId }] }));

    allSucceeded(
      await ok(shipping, 'POST', '/v2/shipping/fulfillment_orders/reject', {
        rejections: [{ fulfillmentOrderId: rejectFo.fulfillmentOrderId, reason: 'REJECTION_REASON_OTHER', detail: 'wrong bin label' }],
      }),
    );
    const rejected = (await ok(shipping, 'GET', `/v2/shipping/fulfillment_order?fulfillmentOrderId=${rejectFo.fulfillmentOrderId}`)).json();
    assert.equal(rejected.status, 'FULFILLMENT_ORDER_STATUS_REJECTED');

    // The storefront's reads of shipped orders: the feed (the sandbox's shipped orders and this one) and one order.
    const shipped = (await ok(storefront, 'GET', '/v2/storefront/orders/shipped')).json().orders as { orderNumber: string }[];
    assert.ok(nonEmpty(shipped, 'shipped orders').some((o) => o.orderNumber === toShip.orderNumber), 'the shipped order is in the feed');
    const one = (await ok(storefront, 'GET', `/v2/storefront/order?channelOrderId=${toShip.channelOrderId}`)).json().order;
    assert.equal(one.orderNumber, toShip.orderNumber);
    assert.equal(nonEmpty(one.packages as unknown[], 'the order’s packages').length, 2);
  });

  it('inventory: updates from the inventory app and the 3PL, then its list, warehouses and status', async () => {
    const observedTs = new Date(t.deps.clock.now().getTime() - 1000).toISOString();
    allSucceeded(
      await ok(inventoryApp, 'POST', '/v2/inventory', {
        updates: [
          { sku: 'V2A-CUP-S', warehouseUniqueId: 'EAST', quantity: 7 },
          { sku: 'SANDBOX-MUG-BLUE', warehouseUniqueId: 'EAST', quantity: 4 },
        ],
        observedTs,
      }),
    );
    allSucceeded(await ok(thirdParty, 'POST', '/v2/inventory', { updates: [{ sku: 'V2A-CUP-L', warehouseUniqueId: 'WEST-3PL', quantity: 12 }], observedTs }));
    nonEmpty((await ok(inventoryApp, 'GET', '/v2/inventory')).json().items as unknown[], 'inventory');
    nonEmpty((await ok(thirdParty, 'GET', '/v2/inventory/warehouses')).json().warehouses as unknown[], 'warehouses');
    nonEmpty((await ok(inventoryApp, 'GET', '/v2/inventory/status')).json().checks as unknown[], 'inventory status checks');
  });

  it('leaves no v2 route of the document without a checked 2xx answer', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/v2/'))
      .flatMap(([path, item]) => Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map((m) => `${m.toUpperCase()} ${path}`));
    assert.ok(routes.length >= 47, `the document lists ${routes.length} v2 routes`);
    assert.deepEqual(
      routes.filter((r) => !checkedV2Routes.has(r)),
      [],
      'v2 routes without a validated 2xx answer in this file',
    );
  });
});

describe('the v2 answer check', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  const answer = (body: unknown, statusCode = 200) =>
    ({ statusCode, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) }) as unknown as LightMyRequestResponse;
  const url = '/v2/shipping/fulfillment_orders/acknowledge';
  const result = { fulfillmentOrderId: '12', success: true, errorMessage: '', alreadyAcknowledged: false };

  it('accepts an answer exactly as the schema has it', () => {
    checkV2Answer(t.app, 'POST', url, answer({ results: [result] }));
  });

  it('fails an answer with a field the schema does not list, at the top or nested', () => {
    assert.throws(() => checkV2Answer(t.app, 'POST', url, answer({ results: [result], extra: 1 })), (e: unknown) => e instanceof AssertionError && /extra/.test(e.message));
    assert.throws(
      () => checkV2Answer(t.app, 'POST', url, answer({ results: [{ ...result, internalId: 7 }] })),
      (e: unknown) => e instanceof AssertionError && /internalId/.test(e.message),
    );
  });

  it('fails an answer with a field of the wrong type, and a 2xx status the document does not describe', () => {
    assert.throws(
      () => checkV2Answer(t.app, 'POST', url, answer({ results: [{ ...result, success: 'yes' }] })),
      (e: unknown) => e instanceof AssertionError && /\/results\/0\/success/.test(e.message),
    );
    assert.throws(() => checkV2Answer(t.app, 'POST', url, answer({ results: [result] }, 203)), AssertionError);
  });
});
