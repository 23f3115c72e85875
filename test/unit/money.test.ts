import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { moneyAmountText } from '../../src/lib/money.js';

describe('moneyAmountText (v2 Money amount rendering, resolutions §7)', () => {
  it('pads to two decimals and never rounds or trims', () => {
    assert.equal(moneyAmountText('13'), '13.00');
    assert.equal(moneyAmountText('0'), '0.00');
    assert.equal(moneyAmountText('-5.5'), '-5.50');
    assert.equal(moneyAmountText('12.5'), '12.50');
    assert.equal(moneyAmountText('19.99'), '19.99');
    assert.equal(moneyAmountText('1.255'), '1.255');
    assert.equal(moneyAmountText('10.000'), '10.000');
    assert.equal(moneyAmountText('123456789012345678.1'), '123456789012345678.10');
  });

  it('leaves anything that is not a plain decimal as it is', () => {
    assert.equal(moneyAmountText(''), '');
    assert.equal(moneyAmountText('1e3'), '1e3');
  });
});
