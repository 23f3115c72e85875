import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mostAvailableOf } from '../../src/domain/inventory/most-available.js';

/**
 * The routing rule's pick (src/domain/inventory/most-available.ts), the one function every placement uses:
 * most available first, ties to the lowest warehouse id, only among the candidates, never an empty warehouse.
 * Checked against a plain restatement over generated stock, so a change to either shows.
 */
describe('mostAvailableOf', () => {
  it('picks the candidate with the most units, ties to the lowest id, ignoring non-candidates and empty rows', () => {
    const stock = new Map([
      [3, 5],
      [1, 5],
      [2, 9],
      [4, 0],
      [5, -2],
    ]);
    assert.deepEqual(mostAvailableOf(stock, [1, 3]), { warehouseId: 1, available: 5 });
    assert.deepEqual(mostAvailableOf(stock, [3, 1, 2]), { warehouseId: 2, available: 9 });
    assert.equal(mostAvailableOf(stock, [4, 5, 6]), null);
    assert.equal(mostAvailableOf(stock, []), null);
  });

  it('agrees with sorting the candidates by units (descending) then id, over generated stock', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 2000; round++) {
      const stock = new Map<number, number>();
      for (let w = 1; w <= 8; w++) if (random(3) > 0) stock.set(w, random(6) - 1);
      const candidates = [...new Set(Array.from({ length: random(8) }, () => 1 + random(10)))];
      const expected = candidates
        .map((warehouseId) => ({ warehouseId, available: stock.get(warehouseId) ?? 0 }))
        .filter((c) => c.available > 0)
        .sort((a, b) => b.available - a.available || a.warehouseId - b.warehouseId)[0] ?? null;
      assert.deepEqual(mostAvailableOf(stock, candidates), expected, JSON.stringify({ stock: [...stock], candidates }));
    }
  });
});
