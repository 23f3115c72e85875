/**
 * The /healthz poller of bench/stall.ts, in a process of its own (a poller inside the service process would be
 * held up by the same stalls it is meant to see, and under-report them). Driven over IPC:
 *
 * - `{id, type: 'start', url, intervalMs}`: GET `url` every intervalMs over one keep-alive loopback connection,
 *   one request at a time (the next starts intervalMs after the previous one started, or at once when that one
 *   took longer), recording each latency;
 * - `{id, type: 'stop', waitMs}`: stops polling, waits up to waitMs for the request in flight, and answers
 *   PollStats. A request still unanswered then counts with its age so far, as a lower bound.
 *
 * Its own event-loop delay is measured too: when the machine is so busy that the poller itself lags, its
 * numbers say so.
 */
import http from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

export interface PollStats {
  polls: number;
  worstMs: number;
  p99Ms: number;
  p50Ms: number;
  /** Polls that took 100 ms or more. */
  over100: number;
  /** Polls answered with something else than 200, or failed. */
  failed: number;
  /** True when the worst is a request still unanswered at stop (its age is a lower bound). */
  worstIsLowerBound: boolean;
  /** Longest event-loop delay of the poller process itself during the window (ms). */
  pollerLoopMaxMs: number;
}

export type PollerRequest = { id: number; type: 'start'; url: string; intervalMs: number } | { id: number; type: 'stop'; waitMs: number };
export type PollerReply = { id: number; type: 'start' } | { id: number; type: 'stop'; stats: PollStats };

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const ownLoop = monitorEventLoopDelay({ resolution: 10 });
ownLoop.enable();

interface Session {
  active: boolean;
  latencies: number[];
  failed: number;
  inFlightSince: number | null;
  done: Promise<void>;
}

let session: Session | null = null;

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', reject);
    });
    req.once('error', reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function poll(s: Session, url: string, intervalMs: number): Promise<void> {
  while (s.active) {
    const started = performance.now();
    s.inFlightSince = started;
    let ok = false;
    try {
      ok = (await get(url)) === 200;
    } catch {
      ok = false;
    }
    s.inFlightSince = null;
    s.latencies.push(performance.now() - started);
    if (!ok) s.failed++;
    const wait = started + intervalMs - performance.now();
    if (wait > 0 && s.active) await sleep(wait);
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function stop(waitMs: number): Promise<PollStats> {
  const s = session;
  session = null;
  if (!s) throw new Error('the poller is not running');
  s.active = false;
  await Promise.race([s.done, sleep(waitMs)]);
  const sorted = [...s.latencies].sort((a, b) => a - b);
  let worst = sorted.at(-1) ?? 0;
  let worstIsLowerBound = false;
  if (s.inFlightSince !== null && performance.now() - s.inFlightSince > worst) {
    worst = performance.now() - s.inFlightSince;
    worstIsLowerBound = true;
  }
  return {
    polls: s.latencies.length,
    worstMs: worst,
    p99Ms: percentile(sorted, 99),
    p50Ms: percentile(sorted, 50),
    over100: s.latencies.filter((v) => v >= 100).length,
    failed: s.failed,
    worstIsLowerBound,
    pollerLoopMaxMs: ownLoop.count === 0 ? 0 : ownLoop.max / 1e6,
  };
}

process.on('message', (message: PollerRequest) => {
  if (message.type === 'start') {
    if (session) session.active = false;
    ownLoop.reset();
    const s: Session = { active: true, latencies: [], failed: 0, inFlightSince: null, done: Promise.resolve() };
    s.done = poll(s, message.url, message.intervalMs);
    session = s;
    process.send!({ id: message.id, type: 'start' } satisfies PollerReply);
  } else if (message.type === 'stop') {
    void stop(message.waitMs).then((stats) => process.send!({ id: message.id, type: 'stop', stats } satisfies PollerReply));
  }
});
process.on('disconnect', () => process.exit(0));
