import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_CHANNEL_RULE, ruleForSku, ruledQuantity, type ChannelRuleFields, type ChannelRules } from '../../src/domain/inventory/channel-rules.js';

const rule = (fields: Partial<ChannelRuleFields> = {}): ChannelRuleFields => ({ ...DEFAULT_CHANNEL_RULE, ...fields });
const stock = (...rows: [number, number][]) => rows.map(([warehouseId, available]) => ({ warehouseId, available }));

describe('channel inventory rules: the arithmetic (resolutions §9)', () => {
  it('with the defaults lists every available unit, per warehouse as it is', () => {
    const r = ruledQuantity(rule(), stock([1, 5], [2, 3]));
    assert.equal(r.quantity, 8);
    assert.equal(r.decidedBy, 'percent');
    assert.deepEqual(r.warehouses, [{ warehouseId: 1, quantity: 5 }, { warehouseId: 2, quantity: 3 }]);
  });

  it('0 available lists 0, even with a percent, a safety quantity or a cap', () => {
    for (const fields of [{}, { percent: 50 }, { safetyQuantity: 3 }, { maxQuantity: 10 }]) {
      const r = ruledQuantity(rule(fields), stock([1, 0]));
      assert.equal(r.quantity, 0, JSON.stringify(fields));
      assert.deepEqual(r.warehouses, [{ warehouseId: 1, quantity: 0 }]);
    }
    assert.equal(ruledQuantity(rule(), []).quantity, 0);
  });

  it('counts an oversold warehouse (negative available) as 0, not as a debt on the others', () => {
    const r = ruledQuantity(rule(), stock([1, -4], [2, 6]));
    assert.equal(r.available, 6);
    assert.equal(r.quantity, 6);
    assert.deepEqual(r.warehouses, [{ warehouseId: 1, quantity: 0 }, { warehouseId: 2, quantity: 6 }]);
  });

  it('rounds the percent down, in integers (no float error at the boundary)', () => {
    assert.equal(ruledQuantity(rule({ percent: 50 }), stock([1, 7])).quantity, 3);
    assert.equal(ruledQuantity(rule({ percent: 29 }), stock([1, 100])).quantity, 29);
    assert.equal(ruledQuantity(rule({ percent: 1 }), stock([1, 99])).quantity, 0);
    assert.equal(ruledQuantity(rule({ percent: 100 }), stock([1, 1])).quantity, 1);
  });

  it('shows 0 when the quantity is at or under the safety quantity', () => {
    const equal = ruledQuantity(rule({ safetyQuantity: 5 }), stock([1, 5]));
    assert.equal(equal.quantity, 0);
    assert.equal(equal.afterPercent, 5);
    assert.equal(equal.afterSafety, 0);
    assert.equal(equal.decidedBy, 'safety');
    const above = ruledQuantity(rule({ safetyQuantity: 5 }), stock([1, 6]));
    assert.equal(above.quantity, 6, 'the safety quantity is a threshold, not subtracted');
    assert.equal(above.decidedBy, 'percent');
    // The safety quantity applies after the percent.
    assert.equal(ruledQuantity(rule({ percent: 50, safetyQuantity: 5 }), stock([1, 10])).quantity, 0);
    assert.equal(ruledQuantity(rule({ percent: 50, safetyQuantity: 5 }), stock([1, 12])).quantity, 6);
  });

  it('caps after the safety quantity; a cap below the safety quantity still shows 0 at or under safety', () => {
    const capped = ruledQuantity(rule({ maxQuantity: 4 }), stock([1, 10]));
    assert.equal(capped.quantity, 4);
    assert.equal(capped.decidedBy, 'cap');
    assert.equal(ruledQuantity(rule({ maxQuantity: 0 }), stock([1, 10])).quantity, 0);
    assert.equal(ruledQuantity(rule({ maxQuantity: 2, safetyQuantity: 5 }), stock([1, 5])).quantity, 0);
    assert.equal(ruledQuantity(rule({ maxQuantity: 2, safetyQuantity: 5 }), stock([1, 6])).quantity, 2);
    assert.equal(ruledQuantity(rule({ maxQuantity: 20 }), stock([1, 10])).quantity, 10, 'a cap above the quantity changes nothing');
  });

  it('a fixed quantity wins over everything, above or below what exists', () => {
    const below = ruledQuantity(rule({ fixedQuantity: 3, percent: 10, safetyQuantity: 50, maxQuantity: 1 }), stock([1, 2], [2, 9]));
    assert.equal(below.quantity, 3);
    assert.equal(below.decidedBy, 'fixed');
    assert.equal(below.afterPercent, null);
    assert.deepEqual(below.warehouses, [{ warehouseId: 1, quantity: 0 }, { warehouseId: 2, quantity: 3 }]);
    // Above the stock: warehouses filled in routing order, the remainder to the first (most available).
    const above = ruledQuantity(rule({ fixedQuantity: 20 }), stock([1, 2], [2, 9]));
    assert.equal(above.quantity, 20);
    assert.deepEqual(above.warehouses, [{ warehouseId: 1, quantity: 2 }, { warehouseId: 2, quantity: 18 }]);
    // No stock row at all: the first of the rule's warehouses carries it.
    assert.deepEqual(ruledQuantity(rule({ fixedQuantity: 5 }), [], 7).warehouses, [{ warehouseId: 7, quantity: 5 }]);
    assert.deepEqual(ruledQuantity(rule({ fixedQuantity: 0 }), [], 7).warehouses, []);
  });

  it('splits a reduced quantity over warehouses in routing order (most available first, ties by lowest id), adding up', () => {
    const r = ruledQuantity(rule({ percent: 50 }), stock([3, 4], [1, 4], [2, 10]));
    assert.equal(r.quantity, 9);
    assert.deepEqual(r.warehouses, [{ warehouseId: 1, quantity: 0 }, { warehouseId: 2, quantity: 9 }, { warehouseId: 3, quantity: 0 }]);
    const tie = ruledQuantity(rule({ maxQuantity: 6 }), stock([3, 4], [1, 4]));
    assert.deepEqual(tie.warehouses, [{ warehouseId: 1, quantity: 4 }, { warehouseId: 3, quantity: 2 }]);
    assert.equal(tie.warehouses.reduce((s, w) => s + w.quantity, 0), tie.quantity);
  });
});

describe('channel inventory rules: per-SKU overrides, field by field', () => {
  const rules: ChannelRules = {
    warehouseIds: [1, 2],
    percent: 80,
    safetyQuantity: 2,
    maxQuantity: 50,
    fixedQuantity: null,
    skuOverrides: new Map([
      ['MADE-TO-ORDER', { fixedQuantity: 10 }],
      ['NO-CAP', { maxQuantity: null, percent: 100 }],
      ['EAST-ONLY', { warehouseIds: [2] }],
    ]),
  };

  it('a SKU without an override follows the storefront', () => {
    assert.deepEqual(ruleForSku(rules, 'ANY'), { warehouseIds: [1, 2], percent: 80, safetyQuantity: 2, maxQuantity: 50, fixedQuantity: null });
  });

  it('an override replaces only the fields it sets; null is a value (no cap), not "inherit"', () => {
    assert.deepEqual(ruleForSku(rules, 'MADE-TO-ORDER'), { warehouseIds: [1, 2], percent: 80, safetyQuantity: 2, maxQuantity: 50, fixedQuantity: 10 });
    assert.deepEqual(ruleForSku(rules, 'NO-CAP'), { warehouseIds: [1, 2], percent: 100, safetyQuantity: 2, maxQuantity: null, fixedQuantity: null });
    assert.deepEqual(ruleForSku(rules, 'EAST-ONLY').warehouseIds, [2]);
    assert.equal(ruledQuantity(ruleForSku(rules, 'NO-CAP'), stock([1, 70])).quantity, 70);
    assert.equal(ruledQuantity(ruleForSku(rules, 'ANY'), stock([1, 70])).quantity, 50);
  });
});
