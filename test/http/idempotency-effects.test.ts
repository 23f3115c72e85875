import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { withTx, type Tx } from '../../src/db/tx.js';
import type { DbHandle } from '../../src/db/connect.js';
import type { Principal } from '../../src/domain/accounts/principal.js';
import type { Deps } from '../../src/deps.js';
import { registerErrorHandling } from '../../src/http/plugins/errors.js';
import { registerIdempotency } from '../../src/http/plugins/idempotency.js';
import type { App } from '../../src/http/types.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestDatabase } from '../helpers/app.js';

/**
 * The Idempotency-Key plugin with handlers whose transactions and failures the test controls: each
 * transaction of a keyed request runs exactly once, whether the request fails with a 5xx after some of
 * them committed, or runs so long that a retry takes its key over.
 */
describe('Idempotency-Key: each transaction of a keyed request runs once (effect journal)', () => {
  const clock = manualClock(new Date('2026-06-01T08:00:00.000Z'));
  let handle: DbHandle;
  let drop: () => Promise<void>;
  let app: App;
  let failOnce = false;
  let gate: Promise<void> | null = null;

  class NotPlain {
    constructor(readonly id: number) {}
  }

  const addRow = async (tx: Tx, name: string) => {
    const row = await tx.insertInto('accounts').values({ name, created_at: clock.now().toISOString() }).returning('id').executeTakeFirstOrThrow();
    return { id: row.id, at: new Date(clock.now().getTime()) };
  };

  before(async () => {
    ({ handle, drop } = await createTestDatabase());
    const deps = { db: handle, clock } as unknown as Deps;
    app = Fastify().withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
    registerErrorHandling(app);
    app.decorateRequest('principal', null);
    // Stands in for the auth plugin: the token id comes from a header.
    app.addHook('onRequest', async (request) => {
      request.principal = { tokenId: Number(request.headers['x-token'] ?? 1), accountId: 1 } as unknown as Principal;
    });
    registerIdempotency(app, deps);
    app.post('/effects', { config: { auth: {} } }, async () => {
      const first = await withTx(handle.db, (tx) => addRow(tx, 'effect-one'));
      if (gate) await gate;
      if (failOnce) {
        failOnce = false;
        throw new Error('a failure after the first transaction committed');
      }
      const second = await withTx(handle.db, (tx) => addRow(tx, 'effect-two'));
      // toISOString: the replayed result must still hold a Date.
      return { first: first.id, firstAt: first.at.toISOString(), second: second.id };
    });
    app.post('/fails-first', { config: { auth: {} } }, async () => {
      if (failOnce) {
        failOnce = false;
        throw new Error('a failure before any transaction');
      }
      return { id: (await withTx(handle.db, (tx) => addRow(tx, 'effect-late'))).id };
    });
    app.post('/opaque', { config: { auth: {} } }, async () => {
      const value = await withTx(handle.db, async (tx) => new NotPlain((await addRow(tx, 'effect-opaque')).id));
      if (failOnce) {
        failOnce = false;
        throw new Error('a failure after the transaction committed');
      }
      return { id: value.id };
    });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await handle.close();
    await drop();
  });
  beforeEach(() => {
    failOnce = false;
    gate = null;
  });

  const post = (url: string, key?: string) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) }, payload: {} });
  const count = async (name: string) =>
    Number((await handle.db.selectFrom('accounts').select((eb) => eb.fn.countAll().as('n')).where('name', '=', name).executeTakeFirstOrThrow()).n);
  const keyRow = (key: string) => handle.db.selectFrom('idempotency_keys').selectAll().where('idem_key', '=', key).executeTakeFirst();
  const effectRows = async (key: string) =>
    (await handle.db.selectFrom('idempotency_effects').select('seq').where('idem_key', '=', key).execute()).length;

  it('a 5xx after a commit keeps the key: the retry replays the committed transaction and runs the rest', async () => {
    const [one, two] = [await count('effect-one'), await count('effect-two')];
    failOnce = true;
    const failed = await post('/effects', 'k-5xx');
    assert.equal(failed.statusCode, 500, failed.body);
    assert.equal(await count('effect-one'), one + 1);
    assert.equal((await keyRow('k-5xx'))?.state, 'RETRYABLE');
    assert.equal(await effectRows('k-5xx'), 1);

    // No takeover delay: the failed request is over.
    const retry = await post('/effects', 'k-5xx');
    assert.equal(retry.statusCode, 200, retry.body);
    assert.equal(retry.headers['idempotency-replayed'], undefined);
    assert.equal(await count('effect-one'), one + 1, 'the committed transaction did not run again');
    assert.equal(await count('effect-two'), two + 1);
    assert.equal(retry.json().firstAt, clock.now().toISOString());
    assert.equal((await keyRow('k-5xx'))?.state, 'COMPLETE');
    assert.equal(await effectRows('k-5xx'), 0, 'the records go once the response is stored');

    const replay = await post('/effects', 'k-5xx');
    assert.equal(replay.headers['idempotency-replayed'], 'true');
    assert.equal(replay.body, retry.body);
    assert.equal(await count('effect-two'), two + 1);
  });

  it('a 5xx before anything committed forgets the key: the retry runs afresh, as before', async () => {
    const before = await count('effect-late');
    failOnce = true;
    const failed = await post('/fails-first', 'k-nothing');
    assert.equal(failed.statusCode, 500, failed.body);
    assert.equal(await keyRow('k-nothing'), undefined);
    const retry = await post('/fails-first', 'k-nothing');
    assert.equal(retry.statusCode, 200, retry.body);
    assert.equal(retry.headers['idempotency-replayed'], undefined);
    assert.equal(await count('effect-late'), before + 1);
  });

  it('a request taken over after the delay can no longer commit; the new owner replays its commits', async () => {
    const [one, two] = [await count('effect-one'), await count('effect-two')];
    let release!: () => void;
    gate = new Promise<void>((r) => (release = r));
    const slow = post('/effects', 'k-slow');
    while ((await count('effect-one')) === one) await new Promise((r) => setTimeout(r, 5));

    const early = await post('/effects', 'k-slow');
    assert.equal(early.statusCode, 409, 'still being processed within the delay');
    clock.advance(61_000);
    gate = null;
    const takeover = await post('/effects', 'k-slow');
    assert.equal(takeover.statusCode, 200, takeover.body);
    assert.equal(await count('effect-one'), one + 1, 'the slow request\'s commit was replayed, not repeated');
    assert.equal(await count('effect-two'), two + 1);

    release();
    const late = await slow;
    assert.equal(late.statusCode, 409, late.body);
    assert.match(late.json().errorMessages[0], /took the request over/);
    assert.equal(await count('effect-two'), two + 1, 'the taken-over request rolled its transaction back');

    const replay = await post('/effects', 'k-slow');
    assert.equal(replay.headers['idempotency-replayed'], 'true');
    assert.equal(replay.body, takeover.body, 'the stored answer is the new owner\'s');
  });

  it('a committed result that is not plain data is never run again: the retry answers 409', async () => {
    const before = await count('effect-opaque');
    failOnce = true;
    assert.equal((await post('/opaque', 'k-opaque')).statusCode, 500);
    const retry = await post('/opaque', 'k-opaque');
    assert.equal(retry.statusCode, 409, retry.body);
    assert.match(retry.json().errorMessages[0], /already applied/);
    assert.equal(await count('effect-opaque'), before + 1);
  });

  it('requests without a key record nothing', async () => {
    const before = await handle.db.selectFrom('idempotency_effects').select('seq').execute();
    assert.equal((await post('/effects')).statusCode, 200);
    assert.equal((await post('/opaque')).statusCode, 200);
    assert.deepEqual(await handle.db.selectFrom('idempotency_effects').select('seq').execute(), before);
  });
});
