import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';

/**
 * Issue 8 item 1: a body with thousands of bad entries used to block the event loop for minutes (problems
 * compared with every union, every entry validated past the array's cap). These bodies must be answered
 * with the contract's 400, listing at most 20 problems. No timing is asserted (bench/validation.ts measures
 * it); a regression shows up as these tests running into their timeout.
 */

const MANY = 10_000;
const rep = <T>(make: (i: number) => T) => Array.from({ length: MANY }, (_, i) => make(i));

interface V1Body {
  errorCode: number;
  errorMessages: string[];
  referenceId: string;
}
interface V2Body {
  code: number;
  message: string;
  details: { '@type': string; fieldViolations: { field: string; description: string }[] }[];
}

function v1Problems(res: LightMyRequestResponse): string[] {
  assert.equal(res.statusCode, 400, res.body.slice(0, 500));
  const body = res.json() as V1Body;
  assert.deepEqual(Object.keys(body).sort(), ['errorCode', 'errorMessages', 'referenceId']);
  assert.equal(body.errorCode, 400);
  assert.equal(body.referenceId, res.headers['x-request-id']);
  return body.errorMessages;
}

function v2Problems(res: LightMyRequestResponse): V2Body {
  assert.equal(res.statusCode, 400, res.body.slice(0, 500));
  const body = res.json() as V2Body;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'message']);
  assert.equal(body.code, 3);
  assert.equal(body.details.length, 1);
  assert.equal(body.details[0]!['@type'], 'type.googleapis.com/google.rpc.BadRequest');
  return body;
}

describe('bodies with 10,000 invalid entries', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const send = (method: 'POST' | 'PATCH', url: string, token: string, body: unknown) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

  /** Sends the body and, while it is handled, asks /healthz: both must be answered. */
  async function sendBesideHealth(method: 'POST' | 'PATCH', url: string, token: string, body: unknown) {
    const [res, health] = await Promise.all([send(method, url, token, body), t.app.inject({ url: '/healthz' })]);
    assert.equal(health.statusCode, 200);
    return res;
  }

  const overCapV2: [string, string, string, (s: SeededAccount) => string, unknown][] = [
    ['v2 shipments', '/v2/shipping/shipments', 'shipments', (s) => s.shipping.token, { shipments: rep(() => ({ fulfillmentOrderId: {}, lines: 5, trackingNumber: 3 })) }],
    [
      'v2 cancellation confirmations',
      '/v2/shipping/fulfillment_orders/confirm_cancellations',
      'confirmations',
      (s) => s.shipping.token,
      { confirmations: rep(() => ({ fulfillmentOrderId: {}, lines: 5 })) },
    ],
    ['v2 inventory', '/v2/inventory', 'updates', (s) => s.inventory.token, { observedTs: '2026-01-01T00:00:00Z', updates: rep(() => ({ sku: 5, quantity: {} })) }],
    [
      'v2 ingestion request',
      '/v2/storefront/listing/ingestion/request',
      'variants',
      (s) => s.channel.token,
      { id: 'L-1', variants: rep(() => ({ sku: 5, price: 7, attributes: 'x' })) },
    ],
  ];
  for (const [name, url, field, token, body] of overCapV2) {
    it(`${name}: one problem, the array over its cap, and no per-entry problems`, async () => {
      const res = v2Problems(await sendBesideHealth('POST', url, token(seed), body));
      assert.deepEqual(res.details[0]!.fieldViolations.map((v) => v.field), [field]);
      assert.match(res.details[0]!.fieldViolations[0]!.description, /must NOT have more than \d+ items/);
      assert.match(res.message, new RegExp(`^${field}: must NOT have more than \\d+ items$`));
    });
  }

  it('v1 sales order lines: one problem naming products and its cap', async () => {
    const body = { channelOrderId: 'BIG-1', orderTs: '2026-01-01T00:00:00Z', products: rep(() => ({ quantity: 'x', unitPrice: {} })) };
    assert.deepEqual(v1Problems(await sendBesideHealth('POST', '/v1/salesOrder', seed.sellerToken, body)), ['products: must NOT have more than 500 items']);
  });

  it('v1 shipments: one problem naming packages and its cap of 50', async () => {
    const body = { packages: rep(() => ({ orderNumber: {}, fulfillmentPackageId: {}, cost: {} })) };
    assert.deepEqual(v1Problems(await sendBesideHealth('POST', '/v1/salesOrder/shipments', seed.sellerToken, body)), [
      'packages: must NOT have more than 50 items',
    ]);
  });

  it('admin listing edit: one problem naming variants and its cap', async () => {
    const body = { variants: rep(() => ({ sku: 5, settings: 3 })) };
    const url = `/admin/accounts/${seed.accountId}/listings/1`;
    assert.deepEqual(v1Problems(await sendBesideHealth('PATCH', url, ADMIN_TOKEN, body)), ['variants: must NOT have more than 1000 items']);
  });

  it('v1: the products of one package are capped at 1000', async () => {
    const body = { packages: [{ orderNumber: '1', fulfillmentPackageId: 'P', warehouseId: 1, carrier: 'C', tracking: 'T', service_level: 'G', products: rep(() => ({ quantity: 0 })) }] };
    assert.deepEqual(v1Problems(await sendBesideHealth('POST', '/v1/salesOrder/shipments', seed.sellerToken, body)), [
      'packages[0].products: must NOT have more than 1000 items',
    ]);
  });

  it('entries nested inside a capped batch entry (shipment lines) are capped too', async () => {
    const body = { shipments: [{ fulfillmentOrderId: '1', trackingNumber: 'T', serviceLevel: 'G', lines: rep(() => ({ lineItemId: {}, quantity: {} })) }] };
    const res = v2Problems(await sendBesideHealth('POST', '/v2/shipping/shipments', seed.shipping.token, body));
    assert.deepEqual(res.details[0]!.fieldViolations.map((v) => v.field), ['shipments[0].lines']);
  });
});

describe('many problems within the caps: the first 20, then how many more', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  it('v1: 20 problem lines and one "... and N more problems" line', async () => {
    // 1000 variants (the cap), two problems each.
    const variants = Array.from({ length: 1000 }, () => ({ sku: 5, settings: 3 }));
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/admin/accounts/${seed.accountId}/listings/1`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { variants },
    });
    const lines = v1Problems(res);
    assert.equal(lines.length, 21, JSON.stringify(lines));
    assert.equal(lines[0], 'variants[0].sku: must be string');
    assert.equal(lines[20], '... and 1,980 more problems');
  });

  it('v2: 20 field violations; the message ends with how many more', async () => {
    // 100 updates (the cap), each with a union problem (sku) and a type problem (quantity).
    const updates = Array.from({ length: 100 }, () => ({ sku: 5, quantity: {} }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/inventory',
      headers: { authorization: `Bearer ${seed.inventory.token}` },
      payload: { observedTs: '2026-01-01T00:00:00Z', updates },
    });
    const body = v2Problems(res);
    assert.equal(body.details[0]!.fieldViolations.length, 20);
    assert.deepEqual(body.details[0]!.fieldViolations[0], { field: 'updates[0].sku', description: 'must be string or null' });
    assert.match(body.message, /^updates\[0\]\.sku: must be string or null; .*; \.\.\. and 180 more problems$/);
  });
});
