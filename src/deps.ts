import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { DbHandle } from './db/connect.js';
import type { FileStore } from './db/file-store/index.js';
import type { CallbackSender } from './domain/callbacks/transport.js';
import type { Clock } from './lib/clock.js';
import type { Metrics } from './lib/metrics.js';
import type { RateLimiter } from './lib/rate-limit.js';
import type { Signer } from './lib/signer.js';

/**
 * Everything the edges (routes, jobs, CLI commands) need, created once at start by src/create-deps.ts and
 * passed down; no module keeps a singleton. Only the type lives here, so the edges can name it without
 * importing the composition. The domain does not take it: its functions take the narrow pieces they use.
 */
export interface Deps {
  config: Config;
  db: DbHandle;
  log: Logger;
  clock: Clock;
  signer: Signer;
  rateLimiter: RateLimiter | null;
  /** Report files (src/db/file-store): the database, or FILE_STORE_DIR. */
  files: FileStore;
  /** Sends callbacks to partners; unset: the production sender (src/domain/callbacks/send.ts). */
  callbackSender?: CallbackSender;
  /** Prometheus metrics (src/lib/metrics.ts): a registry of this instance's own, collectors from src/create-deps.ts. */
  metrics: Metrics;
}
