import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueAdHocToken } from '../../src/domain/accounts/oauth.js';
import { SCOPES } from '../../src/domain/accounts/principal.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';

describe('Idempotency-Key on POST (resolutions §0)', () => {
  const clock = manualClock(new Date('2026-06-01T08:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const postV1 = (token: string, body: unknown, key?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: { authorization: token, 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
      payload: JSON.stringify(body),
    });
  const postV2 = (token: string, body: unknown, key?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/inventory',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      payload: JSON.stringify(body),
    });
  const delta = (sku: string, n: number) => ({ products: [{ SKU: sku, warehouseId: seed.warehouses.main, delta_quantity: n }] });

  async function stock(sku: string, warehouseId: number) {
    return t.deps.db.db
      .selectFrom('inventory as i')
      .innerJoin('products as p', 'p.id', 'i.product_id')
      .select(['i.available_quantity', 'i.onhand_quantity', 'i.updated_at'])
      .where('p.account_id', '=', seed.accountId)
      .where('p.sku', '=', sku)
      .where('i.warehouse_id', '=', warehouseId)
      .executeTakeFirst();
  }

  it('v1: a replay with the same key and body returns the stored response and applies nothing again', async () => {
    const first = await postV1(seed.sellerToken, delta('IDEM-1', 5), 'key-1');
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.headers['idempotency-replayed'], undefined);
    assert.equal(first.json().results[0].success, true);
    assert.equal((await stock('IDEM-1', seed.warehouses.main))?.available_quantity, 5);

    clock.advance(1000);
    const replay = await postV1(seed.sellerToken, delta('IDEM-1', 5), 'key-1');
    assert.equal(replay.statusCode, 200);
    assert.equal(replay.headers['idempotency-replayed'], 'true');
    assert.equal(replay.body, first.body);
    assert.match(String(replay.headers['content-type']), /^application\/json/);
    assert.notEqual(replay.headers['x-request-id'], first.headers['x-request-id']);
    assert.equal((await stock('IDEM-1', seed.warehouses.main))?.available_quantity, 5, 'not applied twice');

    // Without a key the same body applies again: keys are opt-in.
    await postV1(seed.sellerToken, delta('IDEM-1', 5));
    assert.equal((await stock('IDEM-1', seed.warehouses.main))?.available_quantity, 10);
  });

  it('v1: the same body with its keys in another order is the same request', async () => {
    const body = { products: [{ SKU: 'IDEM-ORDER', warehouseId: seed.warehouses.main, delta_quantity: 2 }] };
    const reordered = { products: [{ delta_quantity: 2, warehouseId: seed.warehouses.main, SKU: 'IDEM-ORDER' }] };
    assert.equal((await postV1(seed.sellerToken, body, 'key-order')).statusCode, 200);
    const replay = await postV1(seed.sellerToken, reordered, 'key-order');
    assert.equal(replay.statusCode, 200, replay.body);
    assert.equal(replay.headers['idempotency-replayed'], 'true');
    assert.equal((await stock('IDEM-ORDER', seed.warehouses.main))?.available_quantity, 2);
  });

  it('v1: the same key with another body → 409 v1 body, nothing changes', async () => {
    assert.equal((await postV1(seed.sellerToken, delta('IDEM-2', 3), 'key-2')).statusCode, 200);
    const conflict = await postV1(seed.sellerToken, delta('IDEM-2', 4), 'key-2');
    assert.equal(conflict.statusCode, 409, conflict.body);
    const body = conflict.json();
    assert.equal(body.errorCode, 409);
    assert.equal(body.referenceId, conflict.headers['x-request-id']);
    assert.match(body.errorMessages[0], /Idempotency-Key/);
    assert.equal(conflict.headers['idempotency-replayed'], undefined);
    assert.equal((await stock('IDEM-2', seed.warehouses.main))?.available_quantity, 3);
    // The original is still replayable.
    assert.equal((await postV1(seed.sellerToken, delta('IDEM-2', 3), 'key-2')).headers['idempotency-replayed'], 'true');
  });

  it('keys are per token: another token may use the same key', async () => {
    const { accessToken: other } = await issueAdHocToken(t.deps.db.db, seed.accountId, [...SCOPES], clock.now());
    assert.equal((await postV1(seed.sellerToken, delta('IDEM-3', 1), 'shared-key')).statusCode, 200);
    const second = await postV1(other, delta('IDEM-3', 1), 'shared-key');
    assert.equal(second.statusCode, 200);
    assert.equal(second.headers['idempotency-replayed'], undefined);
    assert.equal((await stock('IDEM-3', seed.warehouses.main))?.available_quantity, 2);
    // And another token's different body under the same key is no conflict either.
    assert.equal((await postV1(other, delta('IDEM-3', 7), 'key-2')).statusCode, 200);
    assert.equal((await stock('IDEM-3', seed.warehouses.main))?.available_quantity, 9);
  });

  it('an invalid key → 400 and nothing changes (v1 body on v1, code 3 on v2)', async () => {
    for (const key of ['', 'has space', 'x'.repeat(256), 'ключ', 'tab\tkey']) {
      const res = await postV1(seed.sellerToken, delta('IDEM-4', 1), key);
      assert.equal(res.statusCode, 400, `${JSON.stringify(key)}: ${res.body}`);
      assert.equal(res.json().errorCode, 400);
      assert.match(res.json().errorMessages[0], /Idempotency-Key/);
    }
    assert.equal(await stock('IDEM-4', seed.warehouses.main), undefined);
    const v2 = await postV2(seed.inventory.token, { observedTs: '2026-06-01T08:00:00Z', updates: [{ sku: 'IDEM-4', warehouseUniqueId: 'WH-SECOND', quantity: 1 }] }, 'bad key');
    assert.equal(v2.statusCode, 400);
    assert.equal(v2.json().code, 3);
    // The longest valid key works.
    assert.equal((await postV1(seed.sellerToken, delta('IDEM-4', 1), 'k'.repeat(255))).statusCode, 200);
  });

  it('a request refused by validation does not claim its key', async () => {
    const invalid = await postV1(seed.sellerToken, { products: [{ SKU: 'IDEM-5', warehouseId: 'main', delta_quantity: 1 }] }, 'key-5');
    assert.equal(invalid.statusCode, 400);
    const fixed = await postV1(seed.sellerToken, delta('IDEM-5', 1), 'key-5');
    assert.equal(fixed.statusCode, 200, fixed.body);
    assert.equal(fixed.headers['idempotency-replayed'], undefined);
    assert.equal((await stock('IDEM-5', seed.warehouses.main))?.available_quantity, 1);
  });

  it('a key lives 24 hours', async () => {
    assert.equal((await postV1(seed.sellerToken, delta('IDEM-6', 1), 'key-6')).statusCode, 200);
    clock.advance(24 * 3600 * 1000 - 1000);
    assert.equal((await postV1(seed.sellerToken, delta('IDEM-6', 1), 'key-6')).headers['idempotency-replayed'], 'true');
    clock.advance(2000);
    const later = await postV1(seed.sellerToken, delta('IDEM-6', 1), 'key-6');
    assert.equal(later.statusCode, 200);
    assert.equal(later.headers['idempotency-replayed'], undefined);
    assert.equal((await stock('IDEM-6', seed.warehouses.main))?.available_quantity, 2);
  });

  it('concurrent requests with one key apply once', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => postV1(seed.sellerToken, delta('IDEM-7', 1), 'key-7')));
    const fresh = results.filter((r) => r.statusCode === 200 && r.headers['idempotency-replayed'] === undefined);
    assert.equal(fresh.length, 1, results.map((r) => `${r.statusCode} ${r.body}`).join('\n'));
    for (const r of results) {
      assert.ok(r.statusCode === 200 || (r.statusCode === 409 && /still being processed/.test(r.json().errorMessages[0])), r.body);
    }
    assert.equal((await stock('IDEM-7', seed.warehouses.main))?.available_quantity, 1);
  });

  it('is ignored on GET', async () => {
    const res = await t.app.inject({ url: '/v1/warehouses', headers: { authorization: seed.sellerToken, 'idempotency-key': 'bad key' } });
    assert.equal(res.statusCode, 200);
  });

  describe('v2', () => {
    const update = (quantity: number) => ({
      observedTs: clock.now().toISOString(),
      updates: [{ sku: 'IDEM-V2', warehouseUniqueId: 'WH-SECOND', quantity: String(quantity) }],
    });

    it('replays the stored response without applying it again; another body → 409 code 10', async () => {
      // v2 never creates products: the seller creates the SKU first (on a warehouse it controls).
      assert.equal((await postV1(seed.sellerToken, delta('IDEM-V2', 0))).statusCode, 200);
      const body = update(7);
      const first = await postV2(seed.inventory.token, body, 'v2-key');
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.json().results[0].success, true, first.body);
      const applied = await stock('IDEM-V2', seed.warehouses.second);
      assert.equal(applied?.onhand_quantity, 7);

      clock.advance(5000);
      const replay = await postV2(seed.inventory.token, body, 'v2-key');
      assert.equal(replay.statusCode, 200);
      assert.equal(replay.headers['idempotency-replayed'], 'true');
      assert.equal(replay.body, first.body);
      assert.equal((await stock('IDEM-V2', seed.warehouses.second))?.updated_at, applied?.updated_at, 'not applied again');

      const conflict = await postV2(seed.inventory.token, { ...body, updates: [{ ...body.updates[0], quantity: '8' }] }, 'v2-key');
      assert.equal(conflict.statusCode, 409, conflict.body);
      assert.equal(conflict.json().code, 10);
      assert.deepEqual(conflict.json().details, []);
      assert.equal((await stock('IDEM-V2', seed.warehouses.second))?.onhand_quantity, 7);
    });

    it('an error response is replayed too (a 4xx is an answer, not a failure to answer)', async () => {
      const bad = { observedTs: '2026-06-01T08:00:00', updates: [{ sku: 'IDEM-V2', warehouseUniqueId: 'WH-SECOND', quantity: '1' }] };
      const first = await postV2(seed.inventory.token, bad, 'v2-bad');
      assert.equal(first.statusCode, 400, first.body);
      const replay = await postV2(seed.inventory.token, bad, 'v2-bad');
      assert.equal(replay.statusCode, 400);
      assert.equal(replay.headers['idempotency-replayed'], 'true');
      assert.deepEqual(replay.json(), first.json());
    });
  });
});
