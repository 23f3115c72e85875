import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/app.js';
import { createDeps, createLogger } from '../../src/create-deps.js';
import { issueAdHocToken } from '../../src/domain/accounts/oauth.js';
import { manualClock } from '../../src/lib/clock.js';
import { redisRateLimiter } from '../../src/lib/rate-limit.js';
import { createSigner } from '../../src/lib/signer.js';
import { createTestApp, createTestDatabase, testConfig, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';

const V1_ROUTE = '/v1/warehouses';
const V2_ROUTE = '/v2/inventory/warehouses';

function assertRateHeaders(res: LightMyRequestResponse, limit: number, remaining: number) {
  assert.equal(res.headers['ratelimit-limit'], String(limit));
  assert.equal(res.headers['ratelimit-remaining'], String(remaining));
  assert.match(String(res.headers['ratelimit-reset']), /^\d+$/);
}

describe('rate limit (leaky bucket per token, resolutions §0)', () => {
  const clock = manualClock(new Date('2026-05-01T00:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp({ clock, rateLimit: { rps: 10, burst: 10 } });
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const get = (url: string, token: string) => t.app.inject({ url, headers: { authorization: `Bearer ${token}` } });

  it('lets a burst of 10 through, answers the 11th with 429 and Retry-After (v1 body)', async () => {
    const { accessToken } = await issueAdHocToken(t.deps.db.db, seed.accountId, ['legacy'], clock.now());
    for (let i = 0; i < 10; i++) {
      const res = await get(V1_ROUTE, accessToken);
      assert.equal(res.statusCode, 200, `request ${i + 1}`);
      assertRateHeaders(res, 10, 9 - i);
      assert.equal(res.headers['retry-after'], undefined);
    }
    const limited = await get(V1_ROUTE, accessToken);
    assert.equal(limited.statusCode, 429);
    assertRateHeaders(limited, 10, 0);
    assert.equal(limited.headers['retry-after'], '1');
    const body = limited.json();
    assert.equal(body.errorCode, 429);
    assert.equal(body.referenceId, limited.headers['x-request-id']);
    assert.match(body.errorMessages[0], /rate limit/);

    // The bucket drains at 10 a second: after 100 ms exactly one more request fits.
    clock.advance(100);
    assert.equal((await get(V1_ROUTE, accessToken)).statusCode, 200);
    assert.equal((await get(V1_ROUTE, accessToken)).statusCode, 429);
    clock.advance(1000);
    const rested = await get(V1_ROUTE, accessToken);
    assert.equal(rested.statusCode, 200);
    assertRateHeaders(rested, 10, 9);
  });

  it('answers 429 on v2 with google.rpc.Status code 8', async () => {
    const token = seed.inventory.token;
    for (let i = 0; i < 10; i++) assert.equal((await get(V2_ROUTE, token)).statusCode, 200);
    const limited = await get(V2_ROUTE, token);
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.headers['retry-after'], '1');
    assertRateHeaders(limited, 10, 0);
    const body = limited.json();
    assert.equal(body.code, 8);
    assert.deepEqual(body.details, []);
    clock.advance(2000);
  });

  it('keeps a separate bucket for every token', async () => {
    const a = await issueAdHocToken(t.deps.db.db, seed.accountId, ['legacy'], clock.now());
    const b = await issueAdHocToken(t.deps.db.db, seed.accountId, ['legacy'], clock.now());
    for (let i = 0; i < 10; i++) assert.equal((await get(V1_ROUTE, a.accessToken)).statusCode, 200);
    assert.equal((await get(V1_ROUTE, a.accessToken)).statusCode, 429);
    const other = await get(V1_ROUTE, b.accessToken);
    assert.equal(other.statusCode, 200);
    assertRateHeaders(other, 10, 9);
    clock.advance(2000);
  });

  it('counts every authenticated request, 403s included, and they carry the headers', async () => {
    const seller = await issueAdHocToken(t.deps.db.db, seed.accountId, ['legacy'], clock.now());
    const forbidden = await get(V2_ROUTE, seller.accessToken);
    assert.equal(forbidden.statusCode, 403);
    assertRateHeaders(forbidden, 10, 9);
    const next = await get(V1_ROUTE, seller.accessToken);
    assertRateHeaders(next, 10, 8);
    clock.advance(2000);
  });

  it('does not count or label requests that carry no valid token', async () => {
    const res = await t.app.inject({ url: V1_ROUTE, headers: { authorization: 'Bearer nope' } });
    assert.equal(res.statusCode, 401);
    assert.equal(res.headers['ratelimit-limit'], undefined);
    assert.equal((await t.app.inject({ url: '/healthz' })).headers['ratelimit-limit'], undefined);
  });

  it('is off when RATE_LIMIT_RPS is 0', async () => {
    const off = await createTestApp({ clock });
    try {
      const s = await seedAccount(off);
      for (let i = 0; i < 15; i++) {
        const res = await off.app.inject({ url: V1_ROUTE, headers: { authorization: s.sellerToken } });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['ratelimit-limit'], undefined);
      }
    } finally {
      await off.close();
    }
  });

  it('the memory limiter built from the configuration uses the app clock', async () => {
    const config = testConfig({ rateLimitRps: 1, rateLimitBurst: 2 });
    const { handle, drop } = await createTestDatabase();
    const deps = createDeps(config, {
      db: handle,
      log: createLogger({ logLevel: 'silent' }),
      clock,
      signer: createSigner('test-server-secret-0123456789abcdef0123456789'),
    });
    try {
      assert.ok(deps.rateLimiter);
      assert.equal((await deps.rateLimiter.take('k')).allowed, true);
      assert.equal((await deps.rateLimiter.take('k')).allowed, true);
      assert.equal((await deps.rateLimiter.take('k')).allowed, false);
      clock.advance(1000);
      assert.equal((await deps.rateLimiter.take('k')).allowed, true);
    } finally {
      await deps.rateLimiter?.close();
      await handle.close();
      await drop();
    }
  });
});

// --- Redis: shared state across instances ---------------------------------------------------------------

const redisBinary = spawnSync('redis-server', ['--version']).status === 0;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitForRedis(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return;
    } catch {
      client.disconnect();
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`redis-server at ${url} did not start`);
}

describe('Redis rate limiter', { skip: redisBinary ? false : 'redis-server is not installed (apt-get install redis-server)' }, () => {
  let server: ChildProcess;
  let url: string;
  before(async () => {
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitForRedis(url);
  });
  after(async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  });

  // A very slow drain (one request per 100 s) so the test never depends on how fast it runs.
  const slow = { rps: 0.01, burst: 3 };

  it('allows the burst, then refuses with Retry-After, per key', async () => {
    const limiter = redisRateLimiter(url, slow);
    try {
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await limiter.take('burst-key'));
      assert.deepEqual(decisions.map((d) => d.allowed), [true, true, true, false]);
      assert.deepEqual(decisions.map((d) => d.remaining), [2, 1, 0, 0]);
      assert.ok(decisions.every((d) => d.limit === 3));
      const refused = decisions[3]!;
      assert.ok(refused.retryAfterSeconds >= 99 && refused.retryAfterSeconds <= 100, String(refused.retryAfterSeconds));
      assert.ok(refused.resetSeconds >= 299 && refused.resetSeconds <= 300, String(refused.resetSeconds));
      assert.equal((await limiter.take('another-key')).allowed, true);
    } finally {
      await limiter.close();
    }
  });

  it('shares one bucket between instances', async () => {
    const a = redisRateLimiter(url, slow);
    const b = redisRateLimiter(url, slow);
    try {
      assert.equal((await a.take('shared')).allowed, true);
      assert.equal((await b.take('shared')).allowed, true);
      assert.equal((await a.take('shared')).allowed, true);
      assert.equal((await b.take('shared')).allowed, false);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('expires drained buckets', async () => {
    const limiter = redisRateLimiter(url, { rps: 10, burst: 10 });
    const client = new Redis(url);
    try {
      await limiter.take('ttl-key');
      const ttl = await client.pttl('rl:ttl-key');
      assert.ok(ttl > 0 && ttl <= 1100, String(ttl));
    } finally {
      await limiter.close();
      await client.quit();
    }
  });

  it('limits an app configured with REDIS_URL, across two app instances', async () => {
    const { handle, drop } = await createTestDatabase();
    const config = testConfig({ redisUrl: url, rateLimitRps: slow.rps, rateLimitBurst: slow.burst });
    const makeDeps = () =>
      createDeps(config, {
        db: handle,
        log: createLogger({ logLevel: 'silent' }),
        signer: createSigner('test-server-secret-0123456789abcdef0123456789'),
      });
    const deps1 = makeDeps();
    const deps2 = makeDeps();
    const app1 = await buildApp(deps1);
    const app2 = await buildApp(deps2);
    try {
      const t = { app: app1, deps: deps1, close: async () => {} } as TestApp;
      const s = await seedAccount(t);
      const headers = { authorization: s.sellerToken };
      const r1 = await app1.inject({ url: V1_ROUTE, headers });
      assert.equal(r1.statusCode, 200);
      assertRateHeaders(r1, 3, 2);
      assert.equal((await app2.inject({ url: V1_ROUTE, headers })).statusCode, 200);
      assert.equal((await app1.inject({ url: V1_ROUTE, headers })).statusCode, 200);
      const limited = await app2.inject({ url: V1_ROUTE, headers });
      assert.equal(limited.statusCode, 429);
      assert.ok(Number(limited.headers['retry-after']) >= 99);
      assert.equal(limited.json().errorCode, 429);
    } finally {
      await app1.close();
      await app2.close();
      await deps1.rateLimiter?.close();
      await deps2.rateLimiter?.close();
      await handle.close();
      await drop();
    }
  });

  it('serves unlimited (not 500) when Redis is unreachable', async () => {
    const { handle, drop } = await createTestDatabase();
    const deadUrl = `redis://127.0.0.1:${await freePort()}`;
    const deps = createDeps(testConfig({ redisUrl: deadUrl, rateLimitRps: 10, rateLimitBurst: 10 }), {
      db: handle,
      log: createLogger({ logLevel: 'silent' }),
      signer: createSigner('test-server-secret-0123456789abcdef0123456789'),
    });
    const app = await buildApp(deps);
    try {
      const s = await seedAccount({ app, deps, close: async () => {} });
      const res = await app.inject({ url: V1_ROUTE, headers: { authorization: s.sellerToken } });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['ratelimit-limit'], undefined);
    } finally {
      await app.close();
      await deps.rateLimiter?.close();
      await handle.close();
      await drop();
    }
  });
});
