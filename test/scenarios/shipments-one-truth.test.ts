import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withTx } from '../../src/db/tx.js';
import { AppError } from '../../src/domain/errors.js';
import { recordShipment, type RecordShipmentInput } from '../../src/domain/orders/shipments.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';

interface ViewPackage {
  packageId: number;
  tracking: string | null;
  products: { sku: string | null; lineItemId: string; quantity: number }[];
}

/**
 * Shipments as one truth: v2 shipments (recordShipment, as POST /v2/shipping/shipments calls it) and v1
 * POST /v1/salesOrder/shipments write the same packages, shippedQuantity and status, in any mix.
 */
describe('shipments recorded through v1 and v2 agree', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let order: Order;
  let orderId: number;
  let lineA: number;

  const v2 = (input: Partial<RecordShipmentInput>) =>
    withTx(t.deps.db.db, (tx) =>
      recordShipment(tx, {
        accountId: seed.accountId,
        orderId,
        warehouseId: seed.warehouses.main,
        externalPackageId: 'V2-1',
        source: 'V2',
        carrier: 'FedEx',
        serviceLevel: 'Ground',
        tracking: 'FX1',
        trackingUrl: 'https://track.example/FX1',
        shippedTs: clock.now(),
        cost: '3.10',
        lines: [{ lineId: lineA, quantity: 1 }],
        now: clock.now(),
        ...input,
      }),
    );
  const view = async () => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${order.orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order & { packages: ViewPackage[] };
  };
  const refused = async (input: Partial<RecordShipmentInput>, pattern: RegExp) => {
    const before = await view();
    await assert.rejects(v2(input), (e: unknown) => e instanceof AppError && e.code === 'INVALID_ARGUMENT' && pattern.test(e.message));
    assert.deepEqual(await view(), before);
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    await stock(t, seed.sellerToken, 'A', seed.warehouses.main, 10);
    await stock(t, seed.sellerToken, 'B', seed.warehouses.main, 10);
    order = await createOrder(
      t,
      seed.channel.token,
      orderBody('ONE', [
        { requestedSku: 'A', quantity: 3 },
        { requestedSku: 'B', quantity: 2 },
      ]),
    );
    orderId = Number(order.orderNumber);
    lineA = Number(order.products[0]!.lineItemId);
  });
  after(async () => t.close());

  it('a v2 shipment shows in the v1 view; its replay records nothing', async () => {
    clock.advance(1000);
    const first = await v2({});
    assert.equal(first.alreadyRecorded, false);
    const again = await v2({ lines: [{ lineId: lineA, quantity: 2 }] });
    assert.deepEqual(again, { packageId: first.packageId, alreadyRecorded: true });
    const o = await view();
    assert.equal(o.status, 'PARTIALLY_SHIPPED');
    assert.equal(o.products[0]!.shippedQuantity, 1);
    assert.deepEqual(o.packages, [
      {
        packageId: first.packageId,
        carrier: 'FedEx',
        serviceLevel: 'Ground',
        cost: 3.1,
        tracking: 'FX1',
        shippedTs: clock.now().toISOString(),
        rma: null,
        labelUrl: null,
        packageWeight: null,
        packageWeightUom: null,
        packageHeight: null,
        packageWidth: null,
        packageLength: null,
        products: [{ sku: 'A', lineItemId: String(lineA), quantity: 1 }],
      },
    ]);
  });

  it('refuses a bad line, quantity < 1 and more than owed, changing nothing', async () => {
    await refused({ externalPackageId: 'BAD-1', lines: [{ lineId: 999999, quantity: 1 }] }, /not a line of this order/);
    await refused({ externalPackageId: 'BAD-2', lines: [{ lineId: lineA, quantity: 0 }] }, /at least 1/);
    await refused({ externalPackageId: 'BAD-3', lines: [{ lineId: lineA, quantity: 3 }] }, /more than the 2 still owed/);
    await refused({ externalPackageId: 'BAD-4', warehouseId: seed.warehouses.second, lines: null }, /nothing is owed/);
  });

  it('v1 ships some, then a v2 shipment without lines ships everything still owed', async () => {
    clock.advance(1000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/salesOrder/shipments',
      headers: bearer(seed.channel.token),
      payload: {
        packages: [
          {
            orderNumber: order.orderNumber,
            fulfillmentPackageId: 'V1-1',
            warehouseId: seed.warehouses.main,
            carrier: 'UPS',
            tracking: 'UPS1',
            service_level: 'Ground',
            products: [{ sku: 'B', quantity: 1 }],
          },
        ],
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    clock.advance(1000);
    await v2({ externalPackageId: 'V2-REST', tracking: 'FX2', lines: null });
    const o = await view();
    assert.equal(o.status, 'SHIPPED');
    assert.deepEqual(
      o.products.map((l) => [l.shippedQuantity, l.status]),
      [
        [3, 'SHIPPED'],
        [2, 'SHIPPED'],
      ],
    );
    assert.deepEqual(
      o.packages.map((p) => [p.tracking, p.products.map((x) => `${x.sku}×${x.quantity}`)]),
      [
        ['FX1', ['A×1']],
        ['UPS1', ['B×1']],
        ['FX2', ['A×2', 'B×1']],
      ],
    );
    await refused({ externalPackageId: 'V2-MORE', lines: null }, /nothing is owed/);
  });
});
