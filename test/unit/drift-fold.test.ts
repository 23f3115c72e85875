import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unfold, type FoldedRow } from '../../src/domain/listings/drift.js';

// The drift check's folded rows on SQLite (src/domain/listings/drift.ts): used only when they arrive in
// (intended_changed_at, id) order; anything else sends the request to the row query.
describe('drift fold', () => {
  const at = (minute: number) => `2026-06-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

  it('keeps rows in (time, id) order, ties broken by id', () => {
    const rows: FoldedRow[] = [
      [at(1), 7, 'A', 1],
      [at(1), 9, 'B', null],
      [at(2), 3, 'C', 2],
    ];
    assert.deepEqual(unfold(rows), [
      { sku: 'A', listing_id: 1 },
      { sku: 'B', listing_id: null },
      { sku: 'C', listing_id: 2 },
    ]);
    assert.deepEqual(unfold([]), []);
  });

  it('refuses rows out of order or repeated, so the row query answers instead', () => {
    assert.equal(unfold([[at(2), 1, 'A', 1], [at(1), 2, 'B', 1]]), null);
    assert.equal(unfold([[at(1), 5, 'A', 1], [at(1), 4, 'B', 1]]), null);
    assert.equal(unfold([[at(1), 5, 'A', 1], [at(1), 5, 'A', 1]]), null);
  });
});
