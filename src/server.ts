import { buildApp } from './app.js';
import { closeDeps, createDeps } from './create-deps.js';
import { databaseLabel, startupWarnings, type Config } from './config.js';
import type { AddressInfo } from 'node:net';
import { listenUrl, recordServer } from './lib/server-address.js';
import { migrateToLatest } from './db/migrations/index.js';
import type { Kysely } from 'kysely';
import { startWorker } from './jobs/worker.js';
import { startMetricsServer } from './http/metrics.js';

/** Starts the HTTP server: migrate, listen, and close gracefully on SIGINT/SIGTERM. */
export async function serve(config: Config): Promise<void> {
  const deps = createDeps(config);
  const applied = await migrateToLatest(deps.db.db as unknown as Kysely<unknown>, deps.db.dialect, deps.log);
  if (applied.length > 0) deps.log.info({ migrations: applied }, 'database migrated');
  const app = await buildApp(deps);
  const address = await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as AddressInfo;
  try {
    recordServer(config.dataDir, {
      url: config.publicBaseUrl ?? listenUrl(config.host, port),
      database: databaseLabel(config),
      pid: process.pid,
      startedAt: new Date().toISOString(),
    });
  } catch (error) {
    // Only the CLI's example URLs depend on it: serve anyway.
    deps.log.warn({ err: error }, 'could not record the server address in DATA_DIR');
  }
  // METRICS_PORT: /metrics only there (unauthenticated, on METRICS_HOST), never on the API port.
  const metricsServer = config.metricsPort === null ? null : await startMetricsServer(deps, config.metricsPort, config.metricsHost);
  const accounts = await deps.db.db.selectFrom('accounts').select('id').limit(1).execute();
  const lines = [
    `Multichannel Commerce Service listening on ${address} (${deps.db.dialect})`,
    `  API reference: ${config.publicBaseUrl ?? address}/docs   OpenAPI: ${config.publicBaseUrl ?? address}/openapi.json`,
    metricsServer
      ? `  Prometheus metrics: ${metricsServer.url} (no token: keep METRICS_HOST private)`
      : `  Prometheus metrics: ${address}/metrics (ADMIN_TOKEN, like /admin)`,
  ];
  if (accounts.length === 0) {
    lines.push('  The database is empty. Create a ready-to-use sandbox with:  npm run cli -- sandbox');
  }
  if (config.adminToken === null) {
    lines.push(
      config.trustProxy === false
        ? '  ADMIN_TOKEN is not set: the operator API (/admin) answers loopback callers only.'
        : '  ADMIN_TOKEN is not set: the operator API (/admin) answers no one, since TRUST_PROXY declares a proxy in front.',
    );
  }
  for (const warning of startupWarnings(config)) {
    deps.log.warn(warning);
    lines.push(`  Warning: ${warning}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  // WORKER=off when workers run as their own processes (`npm run cli -- worker`).
  const worker = config.worker === 'inline' ? startWorker(deps) : null;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    deps.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      deps.log.error('shutdown took longer than 10s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close();
      await metricsServer?.close();
      await worker?.stop();
      await closeDeps(deps);
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
