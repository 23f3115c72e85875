import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import { addLandedCost, allocateShipping, type LandedCostState } from '../../src/domain/inbound/landed-cost.js';

const sum = (values: readonly string[]) => values.reduce((s, v) => s.plus(v), new Decimal(0)).toFixed();

/** Receives a shipment receipt by receipt (each a list of line units); returns every receipt's line shares. */
function receiveAll(shippingCost: string | null, shipmentUnits: number, receipts: number[][]): string[][] {
  const allocated: string[] = [];
  let received = 0;
  return receipts.map((lineUnits) => {
    const shares = allocateShipping({ shippingCost, shipmentUnits, receivedBefore: received, allocatedBefore: allocated, lineUnits });
    allocated.push(...shares);
    received += lineUnits.reduce((n, u) => n + u, 0);
    return shares;
  });
}

describe('shipping allocation', () => {
  it('allocates cumulatively by units, the final receipt taking the remainder', () => {
    assert.deepEqual(receiveAll('10.00', 3, [[1], [1], [1]]), [['3.3333'], ['3.3333'], ['3.3334']]);
    assert.deepEqual(receiveAll('10', 3, [[3]]), [['10']]);
    assert.deepEqual(receiveAll('40', 100, [[60], [40]]), [['24'], ['16']]);
  });

  it('splits a receipt over its lines by units, the last line taking the rounding remainder', () => {
    const [shares] = receiveAll('10', 3, [[1, 1, 1]]);
    assert.deepEqual(shares, ['3.3333', '3.3333', '3.3334']);
    assert.equal(sum(shares!), '10');
    // A share smaller than a unit of the 4th decimal per line never goes negative.
    const [tiny] = receiveAll('0.0002', 4, [[1, 1, 1, 1]]);
    assert.deepEqual(tiny, ['0', '0.0001', '0', '0.0001']);
  });

  it('sums exactly to the shipping cost whatever the receipts are', () => {
    const cases: { cost: string; units: number; receipts: number[][] }[] = [
      { cost: '10.00', units: 7, receipts: [[1], [2, 1], [1], [1, 1]] },
      { cost: '999999999.9999', units: 1_000_003, receipts: [[333_333, 1], [1], [666_668]] },
      { cost: '0.0001', units: 9, receipts: [[1], [1], [1], [6]] },
      { cost: '123.4567', units: 13, receipts: [[5, 3], [2], [1, 1, 1]] },
    ];
    for (const c of cases) {
      const all = receiveAll(c.cost, c.units, c.receipts).flat();
      assert.equal(sum(all), new Decimal(c.cost).toFixed(), `${c.cost} over ${c.units}`);
      for (const share of all) {
        assert.ok(new Decimal(share).gte(0), `share ${share} is not negative`);
        assert.ok((share.split('.')[1]?.length ?? 0) <= 4, `share ${share} has at most 4 decimals`);
      }
    }
  });

  it('has nothing to allocate without a shipping cost', () => {
    assert.deepEqual(receiveAll(null, 5, [[2, 3]]), [['0', '0']]);
    assert.deepEqual(receiveAll('0', 5, [[5]]), [['0']]);
  });

  it('never allocates more than what is left', () => {
    // Earlier receipts already carried everything (a lowered shipping cost): nothing more, never negative.
    assert.deepEqual(allocateShipping({ shippingCost: '5', shipmentUnits: 10, receivedBefore: 5, allocatedBefore: ['9'], lineUnits: [5] }), ['0']);
  });
});

describe('weighted-average landed cost', () => {
  it('averages every costed unit exactly, shipping shares included', () => {
    let state: LandedCostState = { units: 0, total: '0' };
    let result = addLandedCost(state, { units: 60, unitItemCost: '2.5', shippingShare: '24' });
    assert.deepEqual(result, { units: 60, total: '174', landedCost: '2.9' });
    state = result;
    result = addLandedCost(state, { units: 40, unitItemCost: '2.75', shippingShare: '16' });
    // (174 + 110 + 16) / 100
    assert.deepEqual(result, { units: 100, total: '300', landedCost: '3' });
  });

  it('rounds the average half up to 4 decimals and keeps the total exact', () => {
    const third = addLandedCost({ units: 0, total: '0' }, { units: 3, unitItemCost: '0', shippingShare: '10' });
    assert.deepEqual(third, { units: 3, total: '10', landedCost: '3.3333' });
    const twoThirds = addLandedCost({ units: 0, total: '0' }, { units: 3, unitItemCost: '0', shippingShare: '20' });
    assert.equal(twoThirds.landedCost, '6.6667');
    // 0.00005 exactly: half up.
    assert.equal(addLandedCost({ units: 0, total: '0' }, { units: 2, unitItemCost: '0', shippingShare: '0.0001' }).landedCost, '0.0001');
    // Large values stay exact (no floats): 1,000,000 units at 999,999,999.9999 plus a cent.
    const big = addLandedCost({ units: 0, total: '0' }, { units: 1_000_000, unitItemCost: '999999999.9999', shippingShare: '0.01' });
    assert.equal(big.total, '999999999999900.01');
    assert.equal(big.landedCost, '999999999.9999');
  });

  it('leaves units without a unit cost out of the average', () => {
    const state = { units: 10, total: '25' };
    assert.deepEqual(addLandedCost(state, { units: 5, unitItemCost: null, shippingShare: '3' }), { units: 10, total: '25', landedCost: '2.5' });
    assert.deepEqual(addLandedCost({ units: 0, total: '0' }, { units: 5, unitItemCost: null, shippingShare: '3' }), { units: 0, total: '0', landedCost: null });
  });
});
