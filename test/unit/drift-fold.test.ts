import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keysInOrder } from '../../src/domain/listings/drift.js';

// The drift check's answer written by SQLite (src/domain/listings/drift.ts) is used only when its rows
// arrived in (intended_changed_at, id) order, as their sort keys show; anything else sends the request to
// the row query.
describe('drift answer written by SQLite: the order check', () => {
  const at = (minute: number) => `2026-06-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
  const keys = (...rows: [string, number][]) => rows.map(([time, id]) => `${time} ${id}`).join(',');

  it('accepts rows in (time, id) order, ties broken by id, and no rows at all', () => {
    assert.equal(keysInOrder(keys([at(1), 7], [at(1), 9], [at(2), 3])), true);
    assert.equal(keysInOrder(keys([at(1), 7])), true);
    assert.equal(keysInOrder(null), true, 'group_concat over no rows is null');
  });

  it('refuses rows out of order or repeated, so the row query answers instead', () => {
    assert.equal(keysInOrder(keys([at(2), 1], [at(1), 2])), false);
    assert.equal(keysInOrder(keys([at(1), 5], [at(1), 4])), false);
    assert.equal(keysInOrder(keys([at(1), 5], [at(1), 5])), false);
    // Ids compare as numbers, not text: 10 after 9 is in order.
    assert.equal(keysInOrder(keys([at(1), 9], [at(1), 10])), true);
    assert.equal(keysInOrder(keys([at(1), 10], [at(1), 9])), false);
  });
});
