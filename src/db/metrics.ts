import { Counter, Gauge } from 'prom-client';
import type { MetricsCollector } from '../lib/metrics.js';
import type { DbHandle } from './connect.js';

/** The database handle's own state, sampled at scrape time without a query (docs/operators/monitoring.md). */
export function databaseMetrics(db: DbHandle): MetricsCollector {
  return ({ registry }) => {
    if ('pool' in db.raw) {
      const pool = db.raw.pool;
      new Gauge({
        name: 'db_pool_connections',
        help: 'PostgreSQL connections of this process: total open, idle, and requests waiting for a free one',
        labelNames: ['state'] as const,
        registers: [registry],
        collect() {
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'waiting' }, pool.waitingCount);
        },
      });
    }
    if (db.groupCommit) {
      const stats = db.groupCommit;
      const fromStats = (name: string, help: string, value: () => number) =>
        new Counter({
          name,
          help,
          registers: [registry],
          collect() {
            this.reset();
            this.inc(value());
          },
        });
      // Group commit (src/db/group-commit.ts): transactions / commits is how many transactions a COMMIT carried.
      fromStats('sqlite_commits_total', 'COMMITs of the embedded database', () => stats.commits);
      fromStats('sqlite_committed_transactions_total', 'Transactions those COMMITs carried (group commit: one COMMIT for every transaction that finished in the same turn)', () => stats.members);
    }
  };
}
