import { statSync } from 'node:fs';
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
/** The WAL size past which a background writer waits for a checkpoint (DbHandle.relieveWal): half the backstop at 4 KiB pages. */
export const WAL_RELIEF_BYTES = 16 * 1024 * 1024;

// Plain JavaScript evaluated in the thread (the same under tsx and from dist/); better-sqlite3 is resolved
// by the parent and handed over as a path.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const checkpoint = () => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    return result.busy === 0 && result.log === result.checkpointed;
  } catch {
    // Busy (another checkpoint runs) or the file is going away: the next round tries again.
    return false;
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message && typeof message === 'object' && 'checkpoint' in message) {
    parentPort.postMessage({ checkpointed: message.checkpoint, complete: checkpoint() });
    return;
  }
  if (message !== 'stop') return;
  clearInterval(timer);
  try { db.close(); } catch {}
  parentPort.close();
});
`;

/** How long checkpointNow waits for the thread before giving up (the backstop remains). */
const CHECKPOINT_NOW_TIMEOUT_MS = 5000;

export interface WalCheckpointer {
  /**
   * Checkpoints the WAL now, in the thread, and resolves (true when every frame was copied) once done: a
   * writer of a long burst (a 200 MiB upload) awaits it between its writes. The WAL only starts over from
   * its beginning after a checkpoint that copied every frame, and the timed rounds never get there while
   * the burst keeps appending: the WAL then grows to the backstop, whose checkpoint copies tens of MiB on
   * the event loop. Awaiting this instead leaves the loop free while the thread copies.
   */
  checkpointNow(): Promise<boolean>;
  stop(): Promise<void>;
}

export function startWalCheckpointer(file: string, intervalMs = 200): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { file, driver, intervalMs }, execArgv: [] });
  // The thread never keeps the process alive, and a failure in it only leaves checkpoints to the backstop.
  worker.unref();
  worker.on('error', () => {});
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const waiting = new Map<number, (complete: boolean) => void>();
  let nextId = 1;
  worker.on('message', (message: { checkpointed?: number; complete?: boolean }) => {
    const settle = message.checkpointed === undefined ? undefined : waiting.get(message.checkpointed);
    if (settle) settle(message.complete === true);
  });
  let gone = false;
  worker.once('exit', () => {
    gone = true;
    for (const settle of waiting.values()) settle(false);
  });
  return {
    checkpointNow() {
      if (gone) return Promise.resolve(false);
      const id = nextId++;
      return new Promise<boolean>((resolve) => {
        // A thread that is gone or stuck must not hold the writer: it goes on, the backstop remains.
        const timer = setTimeout(() => settle(false), CHECKPOINT_NOW_TIMEOUT_MS);
        const settle = (complete: boolean) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(complete);
        };
        waiting.set(id, settle);
        worker.postMessage({ checkpoint: id });
      });
    },
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

/**
 * DbHandle.relieveWal: one stat of the WAL file (microseconds) per call; a checkpoint in the thread, awaited,
 * only when the file holds more than WAL_RELIEF_BYTES (journal_size_limit cuts it back when the WAL starts over).
 */
export function walRelief(walFile: string, checkpointer: WalCheckpointer): () => Promise<void> {
  return async () => {
    let size = 0;
    try {
      size = statSync(walFile).size;
    } catch {
      return; // No WAL file yet (nothing written) or it is being replaced: nothing to relieve.
    }
    if (size > WAL_RELIEF_BYTES) await checkpointer.checkpointNow();
  };
}
