import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PackageRecord } from '../../src/domain/orders/packages.js';
import { packagesByTrackingNumber } from '../../src/domain/storefront/shipped-packages.js';

const record = (id: number, tracking: string | null, shippedTs: string, items: [number, number][]): PackageRecord => ({
  id,
  orderId: 1,
  warehouseId: 1,
  carrier: `carrier-${id}`,
  serviceLevel: 'Ground',
  cost: null,
  tracking,
  shippedTs,
  rma: null,
  labelUrl: null,
  packageWeight: null,
  packageWeightUom: null,
  packageHeight: null,
  packageWidth: null,
  packageLength: null,
  items: items.map(([lineId, quantity]) => ({ lineId, sku: `SKU-${lineId}`, channelSku: `CH-${lineId}`, quantity })),
});

describe('packagesByTrackingNumber (document 2.16: one package entry per tracking number)', () => {
  it('merges packages sharing a tracking number: first id and carrier, earliest shippedTs, items summed per line', () => {
    const out = packagesByTrackingNumber([
      record(7, '1Z', '2026-01-02T00:00:00.000Z', [[10, 1]]),
      record(5, '1Z', '2026-01-03T00:00:00.000Z', [[10, 2], [11, 1]]),
      record(9, '1Y', '2026-01-01T00:00:00.000Z', [[11, 4]]),
    ]);
    assert.deepEqual(out, [
      {
        packageId: '5',
        carrier: 'carrier-5',
        serviceLevel: 'Ground',
        tracking: '1Z',
        shippedTs: '2026-01-02T00:00:00.000Z',
        items: [
          { lineItemId: '10', sku: 'SKU-10', quantity: '3', channelSku: 'CH-10' },
          { lineItemId: '11', sku: 'SKU-11', quantity: '1', channelSku: 'CH-11' },
        ],
      },
      { packageId: '9', carrier: 'carrier-9', serviceLevel: 'Ground', tracking: '1Y', shippedTs: '2026-01-01T00:00:00.000Z', items: [{ lineItemId: '11', sku: 'SKU-11', quantity: '4', channelSku: 'CH-11' }] },
    ]);
  });

  it('keeps packages without a tracking number apart (nothing to merge on)', () => {
    const out = packagesByTrackingNumber([record(1, null, '2026-01-01T00:00:00.000Z', [[10, 1]]), record(2, '', '2026-01-01T00:00:00.000Z', [[10, 1]])]);
    assert.deepEqual(
      out.map((p) => [p.packageId, p.tracking]),
      [
        ['1', ''],
        ['2', ''],
      ],
    );
  });
});
