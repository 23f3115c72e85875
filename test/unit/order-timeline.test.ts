import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkShipDate, MAX_SHIP_DATE_AHEAD_MS } from '../../src/domain/orders/ship-date.js';
import { AppError } from '../../src/domain/errors.js';
import { byTime } from '../../src/http/console/seller/orders/timeline.js';

describe('the order timeline (console)', () => {
  it('orders events by instant, whatever their spelling, ties in the order listed', () => {
    const events = [
      { ts: '2026-11-20T10:00:00.000Z', what: 'ordered' },
      { ts: '2026-11-20T10:00:00Z', what: 'routed (same instant)' },
      { ts: '2026-11-20T12:00:00+02:00', what: 'assigned (same instant, another zone)' },
      { ts: '2026-11-20T09:00:00.000Z', what: 'earlier' },
      { ts: '2026-11-21T00:00:00.000Z', what: 'shipped' },
      { ts: 'not a time', what: 'unreadable' },
      { ts: '2026-11-20T11:00:00+02:00', what: 'between (09:00Z)' },
    ];
    assert.deepEqual(
      byTime(events).map((e) => e.what),
      ['earlier', 'between (09:00Z)', 'ordered', 'routed (same instant)', 'assigned (same instant, another zone)', 'shipped', 'unreadable'],
    );
  });
});

describe('shipment dates (ship-date.ts)', () => {
  const now = new Date('2026-11-21T12:00:00.000Z');
  const orderTs = '2026-11-20T10:00:00.000Z';
  const refusal = (shippedTs: Date) => {
    try {
      checkShipDate('packages[3].shippedTs', 'PKG-9', shippedTs, orderTs, now);
      return null;
    } catch (error) {
      assert.ok(error instanceof AppError);
      assert.equal(error.status, 400);
      assert.deepEqual(error.violations.map((v) => v.field), ['packages[3].shippedTs']);
      return error.message;
    }
  };
  it('accepts the bounds: the order instant and exactly a day after now', () => {
    assert.equal(refusal(new Date(orderTs)), null);
    assert.equal(refusal(now), null);
    assert.equal(refusal(new Date(now.getTime() + MAX_SHIP_DATE_AHEAD_MS)), null);
  });
  it('refuses a millisecond before the order or past the day, naming the package', () => {
    assert.match(refusal(new Date(Date.parse(orderTs) - 1)) ?? '', /^packages\[3\]\.shippedTs: package "PKG-9" is dated 2026-11-20T09:59:59\.999Z, before its order/);
    assert.match(refusal(new Date(now.getTime() + MAX_SHIP_DATE_AHEAD_MS + 1)) ?? '', /package "PKG-9" .* more than a day after now/);
  });
});
