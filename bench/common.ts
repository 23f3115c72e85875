import { fork, type Serializable } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
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

/**
 * Runs `script` (a bench module that answers one job sent over IPC with `{ok, result}` or `{ok: false, error}`)
 * in a fresh child process, so the load generator never competes with the server's event loop.
 */
export function runInChild<J extends Serializable, R>(script: string, job: J): Promise<R> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(here, script), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    let settled = false;
    child.once('message', (message: { ok: true; result: R } | { ok: false; error: string }) => {
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

/** Runs one load job (bench/load.ts) in a fresh child process. */
export function load(job: LoadJob): Promise<LoadResult> {
  return runInChild<LoadJob, LoadResult>('load.ts', job);
}

/** A TCP port free on loopback right now (for a process the benchmark starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Kibibytes of a /proc/<pid>/status field (VmHWM: peak resident set; VmRSS: now); NaN where /proc is missing. */
export function procStatusKb(pid: number | 'self', field: 'VmHWM' | 'VmRSS'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : NaN;
  } catch {
    return NaN;
  }
}

const MB = 1024 * 1024;

export interface RssSummary {
  /** Peak RSS (MB) sampled every 100 ms since markRuns() (or since the start, when never marked). */
  runsPeakMb: number;
  /** Peak RSS (MB) sampled before markRuns() (setup and seeding); null when never marked. */
  setupPeakMb: number | null;
  /** VmHWM of this process (MB): the kernel's peak over the whole process life. */
  hwmMb: number;
}

/**
 * Samples this process's RSS (process.memoryUsage.rss()) every 100 ms: in the in-process benchmarks the
 * service runs in this process (the load generator runs in a child), so this is the service's memory, plus the
 * benchmark's own seeding data while that is alive. markRuns() separates setup from the measured runs.
 */
export class RssSampler {
  static readonly INTERVAL_MS = 100;
  private peak = 0;
  private setupPeak: number | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.sample();
    this.timer = setInterval(() => this.sample(), RssSampler.INTERVAL_MS);
    this.timer.unref();
  }

  private sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peak) this.peak = rss;
  }

  /** The measured runs start now: the peak so far is the setup's. */
  markRuns(): void {
    this.sample();
    this.setupPeak = Math.max(this.setupPeak ?? 0, this.peak);
    this.peak = process.memoryUsage.rss();
  }

  summary(): RssSummary {
    this.sample();
    return { runsPeakMb: this.peak / MB, setupPeakMb: this.setupPeak === null ? null : this.setupPeak / MB, hwmMb: procStatusKb('self', 'VmHWM') / 1024 };
  }

  stop(): RssSummary {
    clearInterval(this.timer);
    return this.summary();
  }
}

/** The memory line of a results section. */
export function rssLine(rss: RssSummary | string): string {
  if (typeof rss === 'string') return `- Service process memory: ${rss}`;
  const hwm = Number.isFinite(rss.hwmMb) ? `; ${rss.hwmMb.toFixed(0)} MB over the whole process life (VmHWM)` : '';
  const setup = rss.setupPeakMb === null ? '' : `; ${rss.setupPeakMb.toFixed(0)} MB during setup and seeding`;
  return `- Service process memory: **peak RSS ${rss.runsPeakMb.toFixed(0)} MB during the runs** (sampled every ${RssSampler.INTERVAL_MS} ms)${setup}${hwm}`;
}

/**
 * The lines every results section opens with: the machine, how the load ran, the database, the service
 * process's peak memory, and the load average around the runs.
 */
export function machineLines(setup: string, loadBefore: number, run: { database: string; rss: RssSummary | string }): string[] {
  const cpus = os.cpus();
  return [
    `- Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`,
    `- Node ${process.version}; ${setup}`,
    `- Database: ${run.database}`,
    rssLine(run.rss),
    `- Load average (1 min) before the runs: ${loadBefore.toFixed(2)}, after: ${os.loadavg()[0]!.toFixed(2)} (other work on the machine skews the numbers)`,
  ];
}
