import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Checkpoints the SQLite WAL from a worker thread. With the default automatic checkpoint, every thousandth
 * page written makes some request's COMMIT copy the WAL into the database file and fsync it on the event
 * loop: about half of a small write transaction's cost on this project's benchmark machine (bench/RESULTS.md).
 * Here a second connection in its own thread runs PASSIVE checkpoints (they never block readers or the
 * writer) every `intervalMs`, and the service's own connection keeps an automatic checkpoint only as a
 * backstop (WAL_BACKSTOP_PAGES) for when this thread falls behind a long burst.
 */
export const WAL_BACKSTOP_PAGES = 8000;

// Plain JavaScript evaluated in the thread (the same under tsx and from dist/); better-sqlite3 is resolved
// by the parent and handed over as a path.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (another checkpoint runs) or the file is going away: the next round tries again.
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  try { db.close(); } catch {}
  parentPort.close();
});
`;

export interface WalCheckpointer {
  stop(): Promise<void>;
}

export function startWalCheckpointer(file: string, intervalMs = 200): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { file, driver, intervalMs }, execArgv: [] });
  // The thread never keeps the process alive, and a failure in it only leaves checkpoints to the backstop.
  worker.unref();
  worker.on('error', () => {});
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      // Held while stopping: an unreferenced thread and timer alone would let the event loop end first.
      worker.ref();
      worker.postMessage('stop');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)));
      await Promise.race([exited, timeout]);
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}
