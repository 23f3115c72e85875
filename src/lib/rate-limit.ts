import { Redis } from 'ioredis';

/**
 * Leaky bucket per access token (resolutions §0), implemented as GCRA: the bucket drains `rps` requests a
 * second and holds at most `burst`. Shared through Redis when configured, per process otherwise.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is empty again. */
  resetSeconds: number;
  /** Seconds to wait before the next request can pass (0 when allowed). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  take(key: string): Promise<RateDecision>;
  close(): Promise<void>;
}

export interface RateLimitSettings {
  rps: number;
  burst: number;
}

/** The GCRA step, shared by the memory store and (as Lua) the Redis store. */
export function gcra(tatMs: number, nowMs: number, s: RateLimitSettings): { tatMs: number; decision: RateDecision } {
  const interval = 1000 / s.rps;
  const capacity = interval * s.burst;
  const newTat = Math.max(tatMs, nowMs) + interval;
  const level = newTat - nowMs;
  if (level > capacity) {
    const held = Math.max(tatMs, nowMs) - nowMs;
    return {
      tatMs,
      decision: {
        allowed: false,
        limit: s.burst,
        remaining: 0,
        resetSeconds: Math.ceil(held / 1000),
        retryAfterSeconds: Math.max(1, Math.ceil((level - capacity) / 1000)),
      },
    };
  }
  return {
    tatMs: newTat,
    decision: {
      allowed: true,
      limit: s.burst,
      remaining: Math.max(0, Math.floor((capacity - level) / interval)),
      resetSeconds: Math.ceil(level / 1000),
      retryAfterSeconds: 0,
    },
  };
}

export function memoryRateLimiter(s: RateLimitSettings, now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, number>();
  let sweepAt = now() + 60_000;
  return {
    async take(key) {
      const t = now();
      if (t > sweepAt) {
        // Drop drained buckets so the map does not grow with every token ever seen.
        for (const [k, tat] of buckets) if (tat < t) buckets.delete(k);
        sweepAt = t + 60_000;
      }
      const step = gcra(buckets.get(key) ?? 0, t, s);
      buckets.set(key, step.tatMs);
      return step.decision;
    },
    async close() {},
  };
}

// The GCRA step as one atomic script; it reads Redis TIME itself so every instance shares one clock and a
// decision costs one round trip (EVALSHA after the first call).
const GCRA_LUA = `
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local interval = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local base = math.max(tat, now)
local newTat = base + interval
if newTat - now > capacity then
  return {0, tostring(base - now), tostring(newTat - now - capacity)}
end
redis.call('SET', KEYS[1], tostring(newTat), 'PX', math.ceil(newTat - now) + 1000)
return {1, tostring(newTat - now), '0'}
`;

type GcraReply = [number, string, string];

export function redisRateLimiter(url: string, s: RateLimitSettings): RateLimiter {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  // Connection failures surface as rejected take() calls (the caller then serves unlimited); without a
  // listener ioredis would also print every reconnect failure to stderr.
  redis.on('error', () => {});
  redis.defineCommand('mcsGcra', { numberOfKeys: 1, lua: GCRA_LUA });
  // defineCommand adds the method at run time; this is its signature.
  const gcraCommand = (redis as unknown as { mcsGcra(key: string, interval: number, capacity: number): Promise<GcraReply> }).mcsGcra.bind(redis);
  const interval = 1000 / s.rps;
  const capacity = interval * s.burst;
  return {
    async take(key) {
      const [ok, level, over] = await gcraCommand(`rl:${key}`, interval, capacity);
      const lvl = Number(level);
      if (ok === 1) {
        return {
          allowed: true,
          limit: s.burst,
          remaining: Math.max(0, Math.floor((capacity - lvl) / interval)),
          resetSeconds: Math.ceil(lvl / 1000),
          retryAfterSeconds: 0,
        };
      }
      return {
        allowed: false,
        limit: s.burst,
        remaining: 0,
        resetSeconds: Math.ceil(lvl / 1000),
        retryAfterSeconds: Math.max(1, Math.ceil(Number(over) / 1000)),
      };
    },
    async close() {
      // quit() waits for a reply a server that is down never sends; disconnect() just stops reconnecting.
      if (redis.status === 'ready') await redis.quit();
      else redis.disconnect();
    },
  };
}
