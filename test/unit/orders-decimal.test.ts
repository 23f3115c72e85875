import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { standardServiceLevelFor } from '../../src/domain/orders/model.js';
import { candidateWarehouses, defaultWarehouse } from '../../src/domain/orders/routing.js';

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
