import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { WITHDRAWN_MESSAGE } from '../../src/domain/fulfillment/access.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock } from './v1-sales-orders-helpers.js';
import { batch, foOf, post, type BatchResult } from './v2-shipping-support.js';

const CONCURRENT = 'a concurrent request changed the same data first; read the order again before retrying';
const INTERNAL = 'internal error applying this entry; retry it, quoting X-Request-Id if it persists';

/**
 * POST /v2/shipping/fulfillment_orders/acknowledge as one set-based transaction (issue 26): every entry keeps the
 * outcome and message it had when each ran in a transaction of its own, in request order, later entries seeing
 * what earlier ones did; failed entries change nothing; parallel calls lose and double nothing.
 */
describe('v2 shipping acknowledge, a batch in one transaction', () => {
  const clock = manualClock(new Date('2026-12-01T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let n = 0;

  /** A new order of one unit in Main and its fulfillment order's id (NEW, owed, in the shipping queue). */
  const newFo = async (quantity = 1): Promise<{ orderNumber: string; id: string }> => {
    clock.advance(1000);
    n += 1;
    const o = await createOrder(t, seed.channel.token, orderBody(`AB-${n}`, [{ requestedSku: 'AB', quantity }]));
    return { orderNumber: o.orderNumber, id: (await foOf(t, seed.shipping.token, o.orderNumber)).fulfillmentOrderId };
  };
  const acknowledge = (entries: unknown[], token = seed.shipping.token) => batch(t, token, 'fulfillment_orders/acknowledge', 'acknowledgements', entries);
  const ok = (id: string, alreadyAcknowledged = false): BatchResult => ({ fulfillmentOrderId: id, success: true, errorMessage: '', alreadyAcknowledged });
  const failed = (id: string, errorMessage: string): BatchResult => ({ fulfillmentOrderId: id, success: false, errorMessage, alreadyAcknowledged: false });
  const rows = async (ids: string[]) =>
    t.deps.db.db
      .selectFrom('fulfillment_orders')
      .selectAll()
      .where('id', 'in', ids.map(Number))
      .orderBy('id')
      .execute();
  const state = async (id: string) => {
    const [row] = await rows([id]);
    return [row!.status, row!.external_order_id];
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    await stock(t, seed.sellerToken, 'AB', seed.warehouses.main, 5000);
    await stock(t, other.sellerToken, 'AB', other.warehouses.main, 10);
  });
  after(async () => t.close());

  it('answers a batch mixing every outcome as entry-by-entry did, changing nothing for the failed entries', async () => {
    // Two fulfillment orders withdrawn from the integration (its warehouse unmapped, then mapped again): one NEW,
    // one acknowledged first, whose externalOrderId stays taken.
    const withdrawnNew = await newFo();
    const withdrawnAcked = await newFo();
    assert.deepEqual(await acknowledge([{ fulfillmentOrderId: withdrawnAcked.id, externalOrderId: 'WD-ACC' }]), [ok(withdrawnAcked.id)]);
    const unmapped = await admin(t, 'DELETE', `/admin/accounts/${seed.accountId}/installations/${seed.shipping.installationId}/warehouses/${seed.warehouses.main}`);
    assert.equal(unmapped.statusCode, 200, unmapped.body);
    const remapped = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/installations/${seed.shipping.installationId}/warehouses`, {
      warehouseId: seed.warehouses.main,
      warehouseUniqueId: 'SHIP-MAIN',
    });
    assert.equal(remapped.statusCode, 201, remapped.body);

    const fresh = await newFo();
    const trimmed = await newFo();
    const repeated = await newFo();
    const otherId = await newFo();
    const rejected = await newFo();
    const cancelled = await newFo();
    const usedInDb = await newFo();
    const usedByWithdrawn = await newFo();
    const noExternal = await newFo();
    const blankExternal = await newFo();
    assert.deepEqual(await acknowledge([
      { fulfillmentOrderId: repeated.id, externalOrderId: 'REP-1' },
      { fulfillmentOrderId: otherId.id, externalOrderId: 'OTH-1' },
    ]), [ok(repeated.id), ok(otherId.id)]);
    const [rejectedResult] = await batch(t, seed.shipping.token, 'fulfillment_orders/reject', 'rejections', [
      { fulfillmentOrderId: rejected.id, reason: 'REJECTION_REASON_OUT_OF_STOCK' },
    ]);
    assert.ok(rejectedResult!.success, rejectedResult!.errorMessage);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/v1/salesOrder/cancel/${cancelled.orderNumber}`,
      headers: bearer(seed.sellerToken),
      payload: { cancellationReason: 'NoInventory' },
    });
    assert.equal(cancel.statusCode, 200, cancel.body);
    clock.advance(1000);
    const theirs = await createOrder(t, other.channel.token, orderBody('AB-OTHER', [{ requestedSku: 'AB', quantity: 1 }]));
    const theirFo = (await foOf(t, other.shipping.token, theirs.orderNumber)).fulfillmentOrderId;

    // Acknowledging nudges the integration (when subscribed): one outbox row per fulfillment order acknowledged.
    const subscribed = await admin(t, 'PATCH', `/admin/apps/${seed.shipping.appId}`, { callbackBaseUrl: 'https://partner.example/hooks', eventTypes: ['FULFILLMENT_ORDER_CHANGED'] });
    assert.equal(subscribed.statusCode, 200, subscribed.body);
    const nudgesBefore = await t.deps.db.db.selectFrom('callback_deliveries').select('id').where('kind', '=', 'NUDGE').execute();

    const named = [withdrawnNew, withdrawnAcked, fresh, trimmed, repeated, otherId, rejected, cancelled, usedInDb, usedByWithdrawn, noExternal, blankExternal].map((f) => f.id);
    const before = await rows([...named, theirFo]);
    clock.advance(1000);
    const results = await acknowledge([
      { fulfillmentOrderId: fresh.id, externalOrderId: 'FRESH-1' },
      { fulfillmentOrderId: '999999999', externalOrderId: 'NOPE-1' },
      { fulfillmentOrderId: 'abc', externalOrderId: 'NOPE-2' },
      { fulfillmentOrderId: theirFo, externalOrderId: 'NOPE-3' },
      { externalOrderId: 'NOPE-4' },
      { fulfillment_order_id: Number(trimmed.id), external_order_id: '  TRIM-1  ' },
      { fulfillmentOrderId: repeated.id, externalOrderId: 'REP-1' },
      { fulfillmentOrderId: otherId.id, externalOrderId: 'OTH-2' },
      { fulfillmentOrderId: rejected.id, externalOrderId: 'REJ-1' },
      { fulfillmentOrderId: withdrawnNew.id, externalOrderId: 'WD-1' },
      { fulfillmentOrderId: withdrawnAcked.id, externalOrderId: 'WD-ACC' },
      { fulfillmentOrderId: cancelled.id, externalOrderId: 'CAN-1' },
      { fulfillmentOrderId: usedInDb.id, externalOrderId: 'REP-1' },
      { fulfillmentOrderId: usedByWithdrawn.id, externalOrderId: 'WD-ACC' },
      { fulfillmentOrderId: noExternal.id },
      { fulfillmentOrderId: blankExternal.id, externalOrderId: '   ' },
      { fulfillmentOrderId: '999999998' },
    ]);
    assert.deepEqual(results, [
      ok(fresh.id),
      failed('999999999', 'fulfillment order 999999999 not found'),
      failed('abc', 'fulfillment order abc not found'),
      failed(theirFo, `fulfillment order ${theirFo} not found`),
      failed('', 'fulfillment order  not found'),
      ok(trimmed.id),
      ok(repeated.id, true),
      failed(otherId.id, 'already acknowledged with externalOrderId "OTH-1"'),
      failed(rejected.id, 'the fulfillment order was rejected; it can no longer be acknowledged'),
      failed(withdrawnNew.id, WITHDRAWN_MESSAGE),
      failed(withdrawnAcked.id, WITHDRAWN_MESSAGE),
      failed(cancelled.id, 'nothing is owed on this fulfillment order (shipped or cancelled)'),
      failed(usedInDb.id, `externalOrderId "REP-1" is already used by fulfillment order ${repeated.id}`),
      failed(usedByWithdrawn.id, `externalOrderId "WD-ACC" is already used by fulfillment order ${withdrawnAcked.id}`),
      failed(noExternal.id, 'externalOrderId is required: your own id for this order'),
      failed(blankExternal.id, 'externalOrderId is required: your own id for this order'),
      failed('999999998', 'fulfillment order 999999998 not found'),
    ]);

    // Only the two acknowledged rows changed, and exactly so; every other row is as it was.
    const iso = clock.now().toISOString();
    const changed = new Map([
      [fresh.id, 'FRESH-1'],
      [trimmed.id, 'TRIM-1'],
    ]);
    const afterRows = await rows([...named, theirFo]);
    for (const [i, row] of afterRows.entries()) {
      const was = before[i]!;
      const ext = changed.get(String(row.id));
      if (ext === undefined) assert.deepEqual(row, was, `fulfillment order ${row.id} unchanged`);
      else assert.deepEqual(row, { ...was, status: 'ACCEPTED', external_order_id: ext, acknowledged_ts: iso, last_updated_ts: iso });
    }
    const nudges = await t.deps.db.db
      .selectFrom('callback_deliveries')
      .select(['body', 'coalesce_key'])
      .where('kind', '=', 'NUDGE')
      .where('id', 'not in', nudgesBefore.length > 0 ? nudgesBefore.map((d) => d.id) : [0])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      nudges.map((d) => [d.coalesce_key, (JSON.parse(d.body!) as { version: string }).version]),
      [fresh.id, trimmed.id].map((id) => [`${seed.shipping.installationId}:FULFILLMENT_ORDER_CHANGED:FULFILLMENT_ORDER:${id}`, iso]),
    );
    const unsubscribed = await admin(t, 'PATCH', `/admin/apps/${seed.shipping.appId}`, { eventTypes: [] });
    assert.equal(unsubscribed.statusCode, 200, unsubscribed.body);
  });

  it('answers duplicates within one call as if the entries ran one after another', async () => {
    const a = await newFo();
    const b = await newFo();
    const c = await newFo();
    const d = await newFo();
    const e = await newFo();
    const rejected = await newFo();
    const [r] = await batch(t, seed.shipping.token, 'fulfillment_orders/reject', 'rejections', [{ fulfillmentOrderId: rejected.id, reason: 'REJECTION_REASON_OUT_OF_STOCK' }]);
    assert.ok(r!.success, r!.errorMessage);
    clock.advance(1000);
    const results = await acknowledge([
      // The same order named three times: set, another id refused, the same id again a repeat.
      { fulfillmentOrderId: a.id, externalOrderId: 'DUP-A' },
      { fulfillmentOrderId: a.id, externalOrderId: 'DUP-A2' },
      { fulfillmentOrderId: a.id, externalOrderId: 'DUP-A' },
      // Two new orders claiming one new id: the first takes it.
      { fulfillmentOrderId: b.id, externalOrderId: 'DUP-B' },
      { fulfillmentOrderId: c.id, externalOrderId: 'DUP-B' },
      // An id an earlier entry of this call took.
      { fulfillmentOrderId: d.id, externalOrderId: 'DUP-A' },
      // An entry that failed claims nothing: a later one may take its id.
      { fulfillmentOrderId: rejected.id, externalOrderId: 'DUP-E' },
      { fulfillmentOrderId: e.id, externalOrderId: 'DUP-E' },
      // The one that lost DUP-B is still NEW: it takes a free id later in the same call.
      { fulfillmentOrderId: c.id, externalOrderId: 'DUP-C' },
      { fulfillmentOrderId: c.id, externalOrderId: 'DUP-B' },
    ]);
    assert.deepEqual(results, [
      ok(a.id),
      failed(a.id, 'already acknowledged with externalOrderId "DUP-A"'),
      ok(a.id, true),
      ok(b.id),
      failed(c.id, `externalOrderId "DUP-B" is already used by fulfillment order ${b.id}`),
      failed(d.id, `externalOrderId "DUP-A" is already used by fulfillment order ${a.id}`),
      failed(rejected.id, 'the fulfillment order was rejected; it can no longer be acknowledged'),
      ok(e.id),
      ok(c.id),
      failed(c.id, 'already acknowledged with externalOrderId "DUP-C"'),
    ]);
    assert.deepEqual(
      await Promise.all([a, b, c, d, e, rejected].map((f) => state(f.id))),
      [['ACCEPTED', 'DUP-A'], ['ACCEPTED', 'DUP-B'], ['ACCEPTED', 'DUP-C'], ['NEW', null], ['ACCEPTED', 'DUP-E'], ['REJECTED', null]],
    );
  });

  it('runs parallel calls on overlapping orders without losing, doubling or failing any', async () => {
    for (let round = 0; round < 3; round++) {
      const fos: string[] = [];
      for (let i = 0; i < 12; i++) fos.push((await newFo()).id);
      const ext = (i: number) => `PAR-${round}-${i}`;
      const shared = `PAR-${round}-SHARED`;
      const entry = (i: number) => ({ fulfillmentOrderId: fos[i]!, externalOrderId: ext(i) });
      const calls = [
        [0, 1, 2, 3, 4, 5, 6, 7].map(entry),
        [11, 10, 9, 8, 7, 6, 5, 4].map(entry),
        [5, 0, 11, 3, 8, 1, 10, 2, 7, 4, 9, 6].map(entry),
        // Two orders claiming one id, against the calls above giving them their own.
        [{ fulfillmentOrderId: fos[9]!, externalOrderId: shared }, { fulfillmentOrderId: fos[2]!, externalOrderId: shared }, entry(6)],
        [{ fulfillmentOrderId: fos[2]!, externalOrderId: shared }, entry(9), entry(0), entry(0)],
      ];
      clock.advance(1000);
      const answers = await Promise.all(calls.map((entries) => post(t, seed.shipping.token, '/v2/shipping/fulfillment_orders/acknowledge', { acknowledgements: entries })));
      const finals = new Map((await rows(fos)).map((r) => [String(r.id), r]));
      const sharedOwner = [...finals.values()].filter((r) => r.external_order_id === shared).map((r) => String(r.id));
      assert.ok(sharedOwner.length <= 1, 'one order at most holds the shared id');
      const fresh = new Map<string, number>();
      answers.forEach((res, c) => {
        assert.equal(res.statusCode, 200, res.body);
        const results = (res.json() as { results: BatchResult[] }).results;
        assert.equal(results.length, calls[c]!.length);
        results.forEach((r, i) => {
          const sent = calls[c]![i]!;
          assert.equal(r.fulfillmentOrderId, sent.fulfillmentOrderId);
          const final = finals.get(sent.fulfillmentOrderId)!;
          assert.equal(final.status, 'ACCEPTED');
          if (final.external_order_id === sent.externalOrderId) {
            assert.equal(r.success, true, r.errorMessage);
            if (r.alreadyAcknowledged === false) fresh.set(sent.fulfillmentOrderId, (fresh.get(sent.fulfillmentOrderId) ?? 0) + 1);
            return;
          }
          // Another id won this order, or another order holds this id.
          assert.equal(r.success, false);
          const allowed = [
            `already acknowledged with externalOrderId "${final.external_order_id}"`,
            ...(sent.externalOrderId === shared ? sharedOwner.map((id) => `externalOrderId "${shared}" is already used by fulfillment order ${id}`) : []),
            CONCURRENT,
          ];
          assert.ok(allowed.includes(r.errorMessage), `unexpected answer: ${r.errorMessage}`);
        });
      });
      // Each order was acknowledged exactly once (every other entry naming its id answered a repeat).
      assert.deepEqual([...fresh.keys()].sort(), [...fos].sort());
      assert.ok([...fresh.values()].every((count) => count === 1), JSON.stringify([...fresh]));
    }
  });

  it('answers INTERNAL for an entry the database refuses for a reason no check foresaw, and keeps the others', async () => {
    const db = t.deps.db.db;
    const [a, b, c] = [await newFo(), await newFo(), await newFo()];
    // A constraint the service knows nothing about stands in for an unexpected database failure.
    const boom =
      t.deps.db.dialect === 'postgres'
        ? sql`alter table fulfillment_orders add constraint boom check (external_order_id is distinct from 'BOOM') not valid`
        : sql`create trigger boom before update on fulfillment_orders when new.external_order_id = 'BOOM' begin select raise(abort, 'boom'); end`;
    await boom.execute(db);
    try {
      clock.advance(1000);
      const results = await acknowledge([
        { fulfillmentOrderId: a.id, externalOrderId: 'FINE-1' },
        { fulfillmentOrderId: b.id, externalOrderId: 'BOOM' },
        { fulfillmentOrderId: c.id, externalOrderId: 'FINE-2' },
        { fulfillmentOrderId: a.id, externalOrderId: 'FINE-1' },
      ]);
      assert.deepEqual(results, [ok(a.id), failed(b.id, INTERNAL), ok(c.id), ok(a.id, true)]);
      assert.deepEqual(await Promise.all([a, b, c].map((f) => state(f.id))), [['ACCEPTED', 'FINE-1'], ['NEW', null], ['ACCEPTED', 'FINE-2']]);
    } finally {
      await (t.deps.db.dialect === 'postgres' ? sql`alter table fulfillment_orders drop constraint boom` : sql`drop trigger boom`).execute(db);
    }
  });

  it('answers an entry whose externalOrderId a parallel request claimed first as a concurrent change (PostgreSQL)', async (ctx) => {
    if (t.deps.db.dialect !== 'postgres') return ctx.skip('SQLite runs one writer at a time: no request can claim it in between');
    const db = t.deps.db.db;
    const [x, y, z] = [await newFo(), await newFo(), await newFo()];
    clock.advance(1000);
    const call: { answer?: Promise<BatchResult[]> } = {};
    await db.transaction().execute(async (trx) => {
      // Another request's transaction claims RACE-1 for x and has not committed yet.
      await trx.updateTable('fulfillment_orders').set({ status: 'ACCEPTED', external_order_id: 'RACE-1' }).where('id', '=', Number(x.id)).execute();
      call.answer = acknowledge([
        { fulfillmentOrderId: z.id, externalOrderId: 'RACE-Z' },
        { fulfillmentOrderId: y.id, externalOrderId: 'RACE-1' },
      ]);
      // The call waits on the unique index for that transaction to end.
      for (let waited = 0; ; waited += 20) {
        const { rows: waiting } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`.execute(db);
        if (Number(waiting[0]!.n) > 0) break;
        assert.ok(waited < 10_000, 'the call never waited for the claim');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    assert.deepEqual(await call.answer, [ok(z.id), failed(y.id, CONCURRENT)]);
    assert.deepEqual(await Promise.all([x, y, z].map((f) => state(f.id))), [['ACCEPTED', 'RACE-1'], ['NEW', null], ['ACCEPTED', 'RACE-Z']]);
  });
});
