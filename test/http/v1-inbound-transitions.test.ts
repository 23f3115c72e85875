import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import {
  assertV1Error,
  createShipment,
  receiveInto,
  getShipment,
  shipmentAction,
  shipmentBody,
  type ShipmentRecord,
} from './v1-inbound-helpers.js';

/** POST /v1/inbound-shipment/{id}/cancel and /ship (document 3.1, 4.3; resolutions §3, §7, §8). */
describe('v1 inbound shipments: cancel and ship', () => {
  const clock = manualClock(new Date('2026-11-01T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let n = 0;
  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const fresh = async (extra: Record<string, unknown> = {}, warehouse = seed.warehouses.main): Promise<ShipmentRecord> => {
    n += 1;
    clock.advance(1000);
    return createShipment(t, seed.sellerToken, shipmentBody(warehouse, 'SKU-T', { create_new_products: true, purchase_order_number: `PO-T${n}`, ...extra }));
  };
  const read = async (id: number) => (await getShipment(t, seed.sellerToken, id)).json() as ShipmentRecord;
  const ok = async (res: Awaited<ReturnType<typeof shipmentAction>>) => {
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as ShipmentRecord;
  };

  describe('cancel', () => {
    it('PENDING → CANCELLED: cancelled_at and updated_at set, the rest unchanged; GET agrees', async () => {
      const s = await fresh({ tracking: 'T', carrier: 'UPS' });
      clock.advance(5000);
      const rec = await ok(await shipmentAction(t, seed.sellerToken, s.id, 'cancel'));
      assert.equal(rec.status, 'CANCELLED');
      assert.equal(rec.cancelled_at, clock.now().toISOString());
      assert.equal(rec.updated_at, clock.now().toISOString());
      assert.deepEqual({ ...rec, status: s.status, cancelled_at: null, updated_at: s.updated_at }, s);
      assert.deepEqual(await read(s.id), rec);
    });

    it('SHIPPED → CANCELLED', async () => {
      const s = await fresh({ status: 'SHIPPED' });
      const rec = await ok(await shipmentAction(t, seed.sellerToken, s.id, 'cancel'));
      assert.equal(rec.status, 'CANCELLED');
      assert.equal(rec.shipped_at, s.shipped_at, 'shipped_at is kept');
    });

    it('a CANCELLED shipment is a 400 naming its status, and stays as it was', async () => {
      const s = await fresh({ status: 'CANCELLED' });
      assertV1Error(await shipmentAction(t, seed.sellerToken, s.id, 'cancel'), 400, /inbound shipment \d+ is CANCELLED: it is already cancelled; only PENDING or SHIPPED shipments can be cancelled/);
      assert.deepEqual(await read(s.id), s);
    });

    it('a PARTIALLY_RECEIVED or RECEIVED shipment is a 400: units were already received', async () => {
      for (const status of ['PARTIALLY_RECEIVED', 'RECEIVED'] as const) {
        const s = await fresh();
        await receiveInto(t, seed.sellerToken, s.id, status);
        assertV1Error(
          await shipmentAction(t, seed.sellerToken, s.id, 'cancel'),
          400,
          new RegExp(`is ${status}: units were already received; only PENDING or SHIPPED shipments can be cancelled`),
        );
        assert.equal((await read(s.id)).status, status);
      }
    });

    it('an empty body is accepted whatever its Content-Type; no Content-Type at all too', async () => {
      for (const contentType of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
        const s = await fresh();
        const res = await t.app.inject({
          method: 'POST',
          url: `/v1/inbound-shipment/${s.id}/cancel`,
          headers: { ...bearer(seed.sellerToken), 'content-type': contentType, 'content-length': '0' },
          payload: '',
        });
        assert.equal((await ok(res)).status, 'CANCELLED', contentType);
      }
    });

    it('cancels sent at once: exactly one succeeds, the others are 400 CANCELLED', async () => {
      const s = await fresh();
      const results = await Promise.all(Array.from({ length: 5 }, () => shipmentAction(t, seed.sellerToken, s.id, 'cancel')));
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 400, 400, 400, 400]);
      for (const r of results.filter((r) => r.statusCode === 400)) assertV1Error(r, 400, /is CANCELLED/);
    });

    it('an unknown id is 404; a malformed one 400', async () => {
      assertV1Error(await shipmentAction(t, seed.sellerToken, 2147483647, 'cancel'), 404, /inbound shipment 2147483647 not found/);
      assertV1Error(await shipmentAction(t, seed.sellerToken, 'abc', 'cancel'), 400, /id/);
    });

    it('an inventory:self token cancels shipments bound for its warehouse', async () => {
      const s = await fresh({}, seed.warehouses.second);
      assert.equal((await ok(await shipmentAction(t, seed.inventory.token, s.id, 'cancel'))).status, 'CANCELLED');
    });
  });

  describe('ship', () => {
    it('PENDING → SHIPPED with carrier, tracking and expected delivery date; shipped_at set', async () => {
      const s = await fresh();
      clock.advance(5000);
      const rec = await ok(await shipmentAction(t, seed.sellerToken, s.id, 'ship', { carrier: ' UPS ', tracking: '1Z999', expected_delivery_date: '2026-12-01' }));
      assert.equal(rec.status, 'SHIPPED');
      assert.equal(rec.shipped_at, clock.now().toISOString());
      assert.equal(rec.updated_at, clock.now().toISOString());
      assert.equal(rec.carrier, 'UPS');
      assert.equal(rec.tracking, '1Z999');
      assert.equal(rec.expected_delivery_date, '2026-12-01');
      assert.deepEqual(await read(s.id), rec);
    });

    it('SHIPPED → SHIPPED updates the fields given only; shipped_at stays; null or blank clears', async () => {
      const s = await fresh({ status: 'SHIPPED', carrier: 'UPS', tracking: 'OLD', expected_delivery_date: '2026-12-01' });
      clock.advance(5000);
      const corrected = await ok(await shipmentAction(t, seed.sellerToken, s.id, 'ship', { tracking: 'NEW' }));
      assert.equal(corrected.status, 'SHIPPED');
      assert.equal(corrected.shipped_at, s.shipped_at);
      assert.equal(corrected.tracking, 'NEW');
      assert.equal(corrected.carrier, 'UPS');
      assert.equal(corrected.expected_delivery_date, '2026-12-01');
      assert.equal(corrected.updated_at, clock.now().toISOString());
      const cleared = await ok(await shipmentAction(t, seed.sellerToken, s.id, 'ship', { carrier: null, expected_delivery_date: null, tracking: '  ' }));
      assert.equal(cleared.carrier, null);
      assert.equal(cleared.tracking, null);
      assert.equal(cleared.expected_delivery_date, null);
      assert.equal(cleared.shipped_at, s.shipped_at);
    });

    it('a timestamp as the delivery date keeps its UTC date', async () => {
      const s = await fresh();
      const rec = await ok(await shipmentAction(t, seed.sellerToken, s.id, 'ship', { expected_delivery_date: '2026-12-01T23:30:00-02:00' }));
      assert.equal(rec.expected_delivery_date, '2026-12-02');
    });

    it('the body may be omitted, or be empty under any Content-Type, or be {}', async () => {
      const bare = await fresh({ carrier: 'DHL' });
      const rec = await ok(await shipmentAction(t, seed.sellerToken, bare.id, 'ship'));
      assert.equal(rec.status, 'SHIPPED');
      assert.equal(rec.carrier, 'DHL', 'nothing given, nothing changed');
      for (const contentType of ['application/json', 'text/plain']) {
        const s = await fresh();
        const res = await t.app.inject({
          method: 'POST',
          url: `/v1/inbound-shipment/${s.id}/ship`,
          headers: { ...bearer(seed.sellerToken), 'content-type': contentType, 'content-length': '0' },
          payload: '',
        });
        assert.equal((await ok(res)).status, 'SHIPPED', contentType);
      }
      const s = await fresh();
      assert.equal((await ok(await shipmentAction(t, seed.sellerToken, s.id, 'ship', {}))).status, 'SHIPPED');
    });

    it('CANCELLED, PARTIALLY_RECEIVED and RECEIVED are a 400 naming the status; nothing changes', async () => {
      const cancelled = await fresh({ status: 'CANCELLED' });
      assertV1Error(
        await shipmentAction(t, seed.sellerToken, cancelled.id, 'ship', { tracking: 'X' }),
        400,
        /inbound shipment \d+ is CANCELLED: it was cancelled; only PENDING or SHIPPED shipments can be marked shipped/,
      );
      assert.deepEqual(await read(cancelled.id), cancelled);
      for (const status of ['PARTIALLY_RECEIVED', 'RECEIVED'] as const) {
        const s = await fresh();
        await receiveInto(t, seed.sellerToken, s.id, status);
        assertV1Error(await shipmentAction(t, seed.sellerToken, s.id, 'ship', { tracking: 'X' }), 400, new RegExp(`is ${status}: units were already received`));
        const after = await read(s.id);
        assert.equal(after.tracking, null);
        assert.equal(after.shipped_at, null);
      }
    });

    it('bad bodies are a 400 naming the field; nothing changes', async () => {
      const s = await fresh();
      const bad: [unknown, RegExp][] = [
        [{ expected_delivery_date: 'soon' }, /expected_delivery_date: "soon" is not a date/],
        [{ expected_delivery_date: '2026-13-01' }, /expected_delivery_date/],
        [{ carrier: 5 }, /carrier/],
        [{ tracking: 'x'.repeat(256) }, /tracking/],
        [{ status: 'SHIPPED' }, /status/],
        [[], /body/],
      ];
      for (const [body, pattern] of bad) assertV1Error(await shipmentAction(t, seed.sellerToken, s.id, 'ship', body), 400, pattern);
      const malformed = await t.app.inject({
        method: 'POST',
        url: `/v1/inbound-shipment/${s.id}/ship`,
        headers: { ...bearer(seed.sellerToken), 'content-type': 'application/json' },
        payload: '{"carrier":',
      });
      assertV1Error(malformed, 400, /JSON/);
      assert.deepEqual(await read(s.id), s);
    });

    it('an unknown id is 404; an inventory:self token ships shipments bound for its warehouse', async () => {
      assertV1Error(await shipmentAction(t, seed.sellerToken, 2147483647, 'ship', {}), 404, /not found/);
      const s = await fresh({}, seed.warehouses.second);
      const rec = await ok(await shipmentAction(t, seed.inventory.token, s.id, 'ship', { tracking: 'INV-1' }));
      assert.equal(rec.status, 'SHIPPED');
      assert.equal(rec.warehouse.warehouseUniqueId, 'WH-SECOND');
    });

    it('a shipped shipment can still be cancelled afterwards; a cancelled one not shipped', async () => {
      const s = await fresh();
      await ok(await shipmentAction(t, seed.sellerToken, s.id, 'ship', { tracking: 'A' }));
      await ok(await shipmentAction(t, seed.sellerToken, s.id, 'cancel'));
      assertV1Error(await shipmentAction(t, seed.sellerToken, s.id, 'ship'), 400, /CANCELLED/);
    });
  });
});
