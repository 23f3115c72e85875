import type { Logger } from 'pino';
import type { DbHandle } from '../../db/connect.js';
import type { FileStore } from '../../db/file-store/index.js';
import type { Clock } from '../../lib/clock.js';

/**
 * What reports and import validations use of the process: the database handle (its dialect and WAL relief
 * as well as the Kysely instance), the clock, the file store and the log. Each function takes the ones it
 * uses; the edges pass their Deps (src/deps.ts), which has them all, and the domain never names Deps.
 */
export interface ReportPorts {
  db: DbHandle;
  clock: Clock;
  files: FileStore;
  log: Logger;
}
