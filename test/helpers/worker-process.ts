import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * A real worker process (`src/main.ts worker`) for crash tests: with `crashAfterChunks`, the test-only
 * preload test/fixtures/crash-after-chunks.ts kills it with SIGKILL right after that many chunk commits
 * (`chunkStatement`: the checkpoint statement that marks a chunk; default a report import's).
 */
export interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
  /** Everything it printed so far. */
  output(): string;
}

const root = path.resolve(import.meta.dirname, '../..');

export function startWorkerProcess(
  env: NodeJS.ProcessEnv,
  args: string[],
  crash: { afterChunks: number; chunkStatement?: string } | null,
): WorkerProcess {
  const preload = crash ? ['--import', './test/fixtures/crash-after-chunks.ts'] : [];
  const crashEnv = crash
    ? { CRASH_AFTER_CHUNKS: String(crash.afterChunks), ...(crash.chunkStatement ? { CRASH_CHUNK_STATEMENT: crash.chunkStatement } : {}) }
    : {};
  const child = spawn(process.execPath, ['--import', 'tsx', ...preload, 'src/main.ts', 'worker', ...args], {
    cwd: root,
    env: { ...env, ...crashEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, output })),
  );
  return { child, exited, output: () => output };
}

/** Waits for the process to end, killing it (and failing) after `ms`. */
export async function exitWithin(worker: WorkerProcess, ms: number) {
  const timer = setTimeout(() => worker.child.kill('SIGKILL'), ms);
  try {
    return await worker.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `check` every 200 ms until it returns a value other than undefined, or fails after `ms`. */
export async function waitFor<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
