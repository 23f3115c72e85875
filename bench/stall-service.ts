/**
 * The service process of bench/stall.ts: `serve` exactly as `npm start` runs it (src/server.ts: migrations,
 * listen, the inline worker when WORKER=inline, graceful close on SIGTERM), configured from the environment the
 * benchmark passes, plus a monitor of its own event loop that the benchmark drives over IPC:
 *
 * - `{id, type: 'reset'}` starts a measurement window: the event-loop delay histogram
 *   (perf_hooks.monitorEventLoopDelay, BENCH_STALL_RESOLUTION_MS, default 10 ms), the event-loop utilisation,
 *   the CPU time and the peak RSS start over;
 * - `{id, type: 'read'}` answers the window so far (LoopStats).
 *
 * The histogram's timer runs on the same loop as the API and the worker, so a task that holds the loop for
 * 2 s shows as a 2,000 ms sample when the loop comes back; the answer to `read` comes after it too.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.js';
import { serve } from '../src/server.js';

export interface LoopStats {
  /** Longest event-loop delay of the window (ms). */
  maxMs: number;
  p99Ms: number;
  p50Ms: number;
  meanMs: number;
  /** Samples of the histogram in the window (one per resolution tick the loop managed to run). */
  samples: number;
  /** Event-loop utilisation over the window (0–1): the share of wall time the loop was busy. */
  utilization: number;
  /** CPU time (user + system) of the process over the window, ms (all its threads: libuv, GC helpers). */
  cpuMs: number;
  wallMs: number;
  /** Peak RSS sampled every 100 ms over the window, MB. */
  peakRssMb: number;
  /** Delays the histogram could not record (over its highest trackable value). */
  exceeds: number;
  /**
   * Cross-check of maxMs: the longest gap between two ticks of a plain 10 ms setInterval, less the 10 ms, seen by
   * JavaScript in this process (as bench/validation.ts measures a stall).
   */
  gapMaxMs: number;
}

export type ServiceRequest = { id: number; type: 'reset' | 'read' };
export type ServiceReply = { id: number; type: 'reset' } | { id: number; type: 'read'; stats: LoopStats };

const requested = Number(process.env.BENCH_STALL_RESOLUTION_MS ?? '10');
const resolutionMs = Number.isInteger(requested) && requested >= 1 ? requested : 10;
const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
histogram.enable();

let windowStart = { elu: performance.eventLoopUtilization(), cpu: process.cpuUsage(), at: performance.now() };
let peakRss = process.memoryUsage.rss();
setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 100).unref();

const TICK_MS = 10;
let lastTick = performance.now();
let gapMax = 0;
/**
 * BENCH_STALL_GAP_LOG=<file>: every gap over BENCH_STALL_GAP_LOG_MS (30) is appended as a JSON line with its end on
 * the monotonic clock in µs, the clock of a V8 CPU profile's timestamps, so bench/stall-gaps.ts can say what ran
 * during each stall (run with BENCH_NODE_OPTIONS=--cpu-prof).
 */
const gapLog = process.env.BENCH_STALL_GAP_LOG;
const gapLogMs = Number(process.env.BENCH_STALL_GAP_LOG_MS ?? '30');
setInterval(() => {
  const now = performance.now();
  const gap = now - lastTick - TICK_MS;
  gapMax = Math.max(gapMax, gap);
  lastTick = now;
  if (gapLog !== undefined && gap > gapLogMs) {
    appendFileSync(gapLog, `${JSON.stringify({ endUs: Number(process.hrtime.bigint() / 1000n), gapMs: Math.round(gap * 10) / 10 })}\n`);
  }
}, TICK_MS).unref();

/**
 * The histogram records the whole interval between two runs of its timer, resolution included (an idle loop
 * reads ~10 ms at a 10 ms resolution): the delay is that less the resolution.
 */
const ms = (ns: number) => Math.max(0, ns / 1e6 - resolutionMs);

function read(): LoopStats {
  const elu = performance.eventLoopUtilization(windowStart.elu);
  const cpu = process.cpuUsage(windowStart.cpu);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  const samples = histogram.count;
  return {
    maxMs: samples === 0 ? 0 : ms(histogram.max),
    p99Ms: samples === 0 ? 0 : ms(histogram.percentile(99)),
    p50Ms: samples === 0 ? 0 : ms(histogram.percentile(50)),
    meanMs: samples === 0 ? 0 : ms(histogram.mean),
    samples,
    utilization: elu.utilization,
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs: performance.now() - windowStart.at,
    peakRssMb: peakRss / 2 ** 20,
    exceeds: histogram.exceeds,
    gapMaxMs: Math.max(0, gapMax, performance.now() - lastTick - TICK_MS),
  };
}

process.on('message', (message: ServiceRequest) => {
  if (message.type === 'reset') {
    histogram.reset();
    windowStart = { elu: performance.eventLoopUtilization(), cpu: process.cpuUsage(), at: performance.now() };
    peakRss = process.memoryUsage.rss();
    gapMax = 0;
    // reset() also forgets when the histogram's timer last ran, and the first run after it records nothing: a
    // stall that began before that run would be missed whole. Answer once a sample is in (two runs).
    const answer = () => {
      if (histogram.count >= 1) process.send!({ id: message.id, type: 'reset' } satisfies ServiceReply);
      else setTimeout(answer, resolutionMs);
    };
    answer();
  } else if (message.type === 'read') {
    process.send!({ id: message.id, type: 'read', stats: read() } satisfies ServiceReply);
  }
});

serve(loadConfig(process.env)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
