import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gcra, memoryRateLimiter } from '../../src/lib/rate-limit.js';

const settings = { rps: 10, burst: 10 };

describe('gcra (leaky bucket, resolutions §0)', () => {
  it('lets a burst of `burst` requests through at one instant, then refuses', () => {
    let tat = 0;
    const now = 1_700_000_000_000;
    const remaining: number[] = [];
    for (let i = 0; i < 10; i++) {
      const step = gcra(tat, now, settings);
      assert.equal(step.decision.allowed, true, `request ${i + 1}`);
      assert.equal(step.decision.limit, 10);
      assert.equal(step.decision.retryAfterSeconds, 0);
      remaining.push(step.decision.remaining);
      tat = step.tatMs;
    }
    assert.deepEqual(remaining, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    const refused = gcra(tat, now, settings);
    assert.equal(refused.decision.allowed, false);
    assert.equal(refused.decision.remaining, 0);
    assert.equal(refused.decision.retryAfterSeconds, 1);
    assert.equal(refused.decision.resetSeconds, 1);
    assert.equal(refused.tatMs, tat, 'a refused request does not fill the bucket');
  });

  it('drains at rps: one slot frees every 1/rps seconds', () => {
    let tat = 0;
    const start = 1_000_000;
    for (let i = 0; i < 10; i++) tat = gcra(tat, start, settings).tatMs;
    assert.equal(gcra(tat, start + 99, settings).decision.allowed, false);
    const after = gcra(tat, start + 100, settings);
    assert.equal(after.decision.allowed, true);
    assert.equal(after.decision.remaining, 0);
    assert.equal(gcra(after.tatMs, start + 100, settings).decision.allowed, false);
  });

  it('a full second of rest empties the bucket', () => {
    let tat = 0;
    for (let i = 0; i < 10; i++) tat = gcra(tat, 0, settings).tatMs;
    const later = gcra(tat, 1000, settings);
    assert.equal(later.decision.allowed, true);
    assert.equal(later.decision.remaining, 9);
  });

  it('computes Retry-After in whole seconds, at least 1, for slow rates', () => {
    const slow = { rps: 0.1, burst: 1 }; // one request per 10 s
    const first = gcra(0, 0, slow);
    assert.equal(first.decision.allowed, true);
    assert.equal(first.decision.resetSeconds, 10);
    const second = gcra(first.tatMs, 2000, slow);
    assert.equal(second.decision.allowed, false);
    assert.equal(second.decision.retryAfterSeconds, 8);
  });

  it('memoryRateLimiter keeps one bucket per key on an injected clock', async () => {
    let now = 5_000;
    const limiter = memoryRateLimiter({ rps: 1, burst: 2 }, () => now);
    assert.equal((await limiter.take('a')).allowed, true);
    assert.equal((await limiter.take('a')).allowed, true);
    assert.equal((await limiter.take('a')).allowed, false);
    assert.equal((await limiter.take('b')).allowed, true, 'another key has its own bucket');
    now += 1000;
    assert.equal((await limiter.take('a')).allowed, true);
    // Long after, the sweep drops drained buckets and a key starts fresh.
    now += 120_000;
    assert.equal((await limiter.take('a')).remaining, 1);
    await limiter.close();
  });
});
