import pino, { type Logger } from 'pino';
import type { Config } from './config.js';
import { connectDatabase, type DbHandle } from './db/connect.js';
import { systemClock, type Clock } from './lib/clock.js';
import { memoryRateLimiter, redisRateLimiter, type RateLimiter } from './lib/rate-limit.js';
import { resolveServerSecret } from './lib/server-secret.js';
import { createSigner, type Signer } from './lib/signer.js';
import path from 'node:path';

/** Everything the app needs, created once at start and passed down; no module keeps a singleton. */
export interface Deps {
  config: Config;
  db: DbHandle;
  log: Logger;
  clock: Clock;
  signer: Signer;
  rateLimiter: RateLimiter | null;
}

/** Header and body paths that may carry credentials: never written to a log. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'access_token',
  'client_secret',
  'clientSecret',
  'code',
  'password',
];

/** The service logger; `destination` lets tests read what would be written (stdout otherwise). */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  const options = { level: config.logLevel, redact: { paths: LOG_REDACT, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}

export function createDeps(config: Config, overrides: Partial<Deps> = {}): Deps {
  const log = overrides.log ?? createLogger(config);
  const db =
    overrides.db ??
    connectDatabase({
      databaseUrl: config.databaseUrl,
      sqliteFile: path.join(config.dataDir, 'service.db'),
      pgPoolSize: config.pgPoolSize,
      onConnectionError: (err) => log.warn({ err }, 'database connection lost; the pool opens new ones, and requests answer 503 while the database is unreachable'),
    });
  const signer = overrides.signer ?? createSigner(resolveServerSecret(config.serverSecret, config.dataDir));
  const clock = overrides.clock ?? systemClock;
  const settings = { rps: config.rateLimitRps, burst: config.rateLimitBurst };
  const rateLimiter =
    overrides.rateLimiter !== undefined
      ? overrides.rateLimiter
      : config.rateLimitRps === 0
        ? null
        : config.redisUrl
          ? redisRateLimiter(config.redisUrl, settings)
          : memoryRateLimiter(settings, () => clock.now().getTime());
  return { config, db, log, clock, signer, rateLimiter };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.rateLimiter?.close();
  await deps.db.close();
}
