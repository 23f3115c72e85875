import pino, { type Logger } from 'pino';
import type { FastifyRequest } from 'fastify';
import { sqliteFileOf, type Config } from './config.js';
import { connectDatabase } from './db/connect.js';
import { createFileStore } from './db/file-store/index.js';
import { databaseMetrics } from './db/metrics.js';
import type { Deps } from './deps.js';
import { deliveryMetrics, jobQueueMetrics } from './jobs/metrics.js';
import { systemClock } from './lib/clock.js';
import { REDACTED, redactUrl, redactUrlsInText } from './lib/log-redaction.js';
import { createMetrics } from './lib/metrics.js';
import { memoryRateLimiter, redisRateLimiter } from './lib/rate-limit.js';
import { resolveServerSecret } from './lib/server-secret.js';
import { createSigner } from './lib/signer.js';

/**
 * The composition root: builds the Deps (src/deps.ts) of one process, for the server and the CLI alike. It
 * is the one place that knows every concrete piece, so it also hands lib/metrics the collectors that read
 * the database, the job queue and callback deliveries.
 */

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

/** Fastify's request serializer, with credential query parameters in the URL redacted. */
function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** The service logger; `destination` lets tests read what would be written (stdout otherwise). */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    redact: { paths: LOG_REDACT, censor: REDACTED },
    // Fastify takes a `req` serializer from the logger it is given in place of its own.
    serializers: { req: serializeRequest },
    // A URL can also reach a log inside a message (an error quoting it): each written line is checked.
    hooks: { streamWrite: redactUrlsInText },
  };
  return destination ? pino(options, destination) : pino(options);
}

export function createDeps(config: Config, overrides: Partial<Deps> = {}): Deps {
  const log = overrides.log ?? createLogger(config);
  const db =
    overrides.db ??
    connectDatabase({
      databaseUrl: config.databaseUrl,
      sqliteFile: sqliteFileOf(config),
      pgPoolSize: config.pgPoolSize,
      speedUps: config.dbSpeedUps,
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
  const files = overrides.files ?? createFileStore(db, config.fileStoreDir, () => clock.now());
  const metrics =
    overrides.metrics ??
    createMetrics(log, {
      samplers: [databaseMetrics(db)],
      readers: [jobQueueMetrics(db.db, clock), deliveryMetrics(db.db)],
    });
  return { config, db, log, clock, signer, rateLimiter, files, metrics, ...(overrides.callbackSender ? { callbackSender: overrides.callbackSender } : {}) };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.rateLimiter?.close();
  await deps.db.close();
}
