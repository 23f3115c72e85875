import type { Command } from 'commander';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import { closeDeps, createDeps } from '../create-deps.js';
import { migrateToLatest } from '../db/migrations/index.js';
import { JobWorker } from '../jobs/worker.js';
import { startMetricsServer, type MetricsServer } from '../http/metrics.js';

/**
 * `worker`: runs background jobs as its own process (with WORKER=off on the API servers), until SIGINT or
 * SIGTERM; the job in hand finishes first. Any number may run against one PostgreSQL database.
 */
export function registerWorkerCommand(program: Command, config: () => Config) {
  program
    .command('worker')
    .description('run background jobs until SIGINT/SIGTERM (see docs/operators/jobs.md)')
    .option('--once', 'run the jobs due now, then exit')
    .action(async (options: { once?: boolean }) => {
      const deps = createDeps(config(), { rateLimiter: null });
      let metricsServer: MetricsServer | null = null;
      try {
        await migrateToLatest(deps.db.db as unknown as Kysely<unknown>, deps.db.dialect, deps.log);
        const worker = new JobWorker(deps);
        if (options.once) {
          await worker.runSchedules();
          const ran = await worker.runUntilIdle();
          process.stdout.write(`ran ${ran} job(s)\n`);
          return;
        }
        const stopped = new Promise<string>((resolve) => {
          process.once('SIGINT', () => resolve('SIGINT'));
          process.once('SIGTERM', () => resolve('SIGTERM'));
        });
        // A separate worker has no API port: METRICS_PORT gives it one for /metrics (its callback attempts).
        if (deps.config.metricsPort !== null) {
          metricsServer = await startMetricsServer(deps, deps.config.metricsPort, deps.config.metricsHost);
          process.stdout.write(`Prometheus metrics: ${metricsServer.url}\n`);
        }
        worker.start();
        process.stdout.write(`worker ${worker.id} running on ${deps.db.dialect}; stop with Ctrl-C or SIGTERM\n`);
        const signal = await stopped;
        process.stdout.write(`${signal}: finishing the running job\n`);
        await worker.stop();
        process.stdout.write('worker stopped\n');
      } finally {
        await metricsServer?.close();
        await closeDeps(deps);
      }
    });
}
