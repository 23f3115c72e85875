import type { Command } from 'commander';
import type { Kysely } from 'kysely';
import pino from 'pino';
import type { Config } from '../config.js';
import { closeDeps, createDeps, createLogger } from '../create-deps.js';
import type { Deps } from '../deps.js';
import { migrateToLatest } from '../db/migrations/index.js';
import { registerAdminCommands } from './admin-commands.js';
import { registerPartnerSimCommand } from './partner-sim.js';
import { registerSandboxCommand } from './sandbox.js';
import { registerWorkerCommand } from './worker.js';

/** Runs fn with deps on a migrated database, then closes everything. */
export async function withDeps<T>(config: Config, fn: (deps: Deps) => Promise<T>): Promise<T> {
  const logLevel = config.logLevel === 'info' ? 'warn' : config.logLevel;
  // Logs go to stderr so a command's stdout is only its result (`--json` output stays parseable).
  const log = createLogger({ logLevel }, pino.destination(2));
  const deps = createDeps({ ...config, logLevel }, { rateLimiter: null, log });
  try {
    await migrateToLatest(deps.db.db as unknown as Kysely<unknown>, deps.db.dialect, deps.log);
    return await fn(deps);
  } finally {
    await closeDeps(deps);
  }
}

export function registerCliCommands(program: Command, config: () => Config) {
  program
    .command('migrate')
    .description('bring the database schema up to date')
    .action(async () => {
      const cfg = config();
      const deps = createDeps(cfg, { rateLimiter: null });
      try {
        const applied = await migrateToLatest(deps.db.db as unknown as Kysely<unknown>, deps.db.dialect, deps.log);
        process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'already up to date\n');
      } finally {
        await closeDeps(deps);
      }
    });
  registerAdminCommands(program, config, withDeps);
  registerSandboxCommand(program, config, withDeps);
  registerWorkerCommand(program, config);
  registerPartnerSimCommand(program);
}
