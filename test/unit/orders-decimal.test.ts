import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../src/domain/errors.js';
import { decimalInput, decimalOutput, normalizeDecimal } from '../../src/domain/orders/decimal.js';
import { standardServiceLevelFor } from '../../src/domain/orders/model.js';
import { candidateWarehouses, defaultWarehouse } from '../../src/domain/orders/routing.js';

describe('order decimals', () => {
  it('keeps numbers and decimal strings exact', () => {
    assert.equal(decimalInput('x', 19.99), '19.99');
    assert.equal(decimalInput('x', 0.1), '0.1');
    assert.equal(decimalInput('x', -3), '-3');
    assert.equal(decimalInput('x', '007.50'), '7.5');
    assert.equal(decimalInput('x', '-0.00'), '0');
    assert.equal(decimalInput('x', '123456789012345678.123456789'), '123456789012345678.123456789');
    assert.equal(decimalInput('x', null), null);
    assert.equal(decimalInput('x', undefined), null);
    assert.equal(normalizeDecimal('10.0'), '10');
    assert.equal(decimalOutput('12.5'), 12.5);
    assert.equal(decimalOutput(null), null);
  });

  it('refuses what is not a plain decimal', () => {
    for (const bad of ['abc', '1e5', '', '1.', '.5', Number.NaN, Number.POSITIVE_INFINITY, 1e21, 1e-7]) {
      assert.throws(() => decimalInput('price', bad), (e: unknown) => e instanceof AppError && e.code === 'INVALID_ARGUMENT' && e.message.startsWith('price: '));
    }
  });
});

describe('standard service level', () => {
  it('takes the explicit level, else a requested one naming a standard level, else Unknown', () => {
    assert.equal(standardServiceLevelFor('Economy', 'next day'), 'Economy');
    assert.equal(standardServiceLevelFor(null, 'second DAY'), 'Second Day');
    assert.equal(standardServiceLevelFor(null, 'UPS Ground'), 'Unknown');
    assert.equal(standardServiceLevelFor(null, null), 'Unknown');
  });
});

describe('routing candidates', () => {
  const warehouses = [
    { id: 7, name: 'C', channelFulfilled: true, controlledBy: null },
    { id: 9, name: 'B', channelFulfilled: false, controlledBy: null },
    { id: 8, name: 'A', channelFulfilled: false, controlledBy: 3 },
  ];
  it('uses the lowest-id warehouse that is not channel-fulfilled as the default', () => {
    assert.equal(defaultWarehouse(warehouses)?.id, 8);
    assert.equal(defaultWarehouse([warehouses[0]!]), null);
  });
  it('leaves channel-fulfilled warehouses out unless the channel fulfils', () => {
    assert.deepEqual(candidateWarehouses(warehouses, false), [9, 8]);
    assert.deepEqual(candidateWarehouses(warehouses, true), [7, 9, 8]);
  });
});
