import { fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadResult } from './load.js';

/** Pieces every benchmark script shares: its knobs, the load generator process, the median. */
const here = path.dirname(fileURLToPath(import.meta.url));

/** A whole-number knob from the environment, with a fallback and a lower bound. */
export function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new Error(`${name} must be a whole number ≥ ${min}, got "${raw}"`);
  return Number(raw);
}

/** Runs one load job in a fresh child process, so the load generator never competes with the server's event loop. */
export function load(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(here, 'load.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    let settled = false;
    child.once('message', (message: { ok: true; result: LoadResult } | { ok: false; error: string }) => {
      settled = true;
      if (message.ok) resolve(message.result);
      else reject(new Error(`load generator failed: ${message.error}`));
    });
    child.once('exit', (code) => {
      if (!settled) reject(new Error(`load generator exited with ${code} before reporting`));
    });
    child.send(job);
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The lines every results section opens with: the machine, how the load ran, and the load average around it. */
export function machineLines(setup: string, loadBefore: number): string[] {
  const cpus = os.cpus();
  return [
    `- Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`,
    `- Node ${process.version}; ${setup}`,
    `- Load average (1 min) before the runs: ${loadBefore.toFixed(2)}, after: ${os.loadavg()[0]!.toFixed(2)} (other work on the machine skews the numbers)`,
  ];
}
