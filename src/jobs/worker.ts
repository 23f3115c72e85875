import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Deps } from '../deps.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { afterCommit } from '../db/tx.js';
import { backgroundTurns } from '../lib/shared-turn.js';
import { claimNextJob, finishAttempt, finishAttemptIn, renewLease, type AttemptOutcome, type FinishResult } from './lease.js';
import { defaultJobRegistry, type JobRegistry } from './registry.js';
import { RECURRING_JOBS, enqueueDueSchedules, ensureSchedules, type RecurringJob } from './schedules.js';
import { onJobsQueued } from '../db/outbox-notify.js';
import type { Job, JobRun } from './types.js';

export interface WorkerOptions {
  /** Lease owner name; default host:pid:random. */
  id?: string;
  registry?: JobRegistry;
  schedules?: RecurringJob[];
  /** Sleep between polls when nothing is due (real time). */
  pollMs?: number;
  /** How long a claimed job stays leased (default JOB_LEASE_SECONDS); renewed every leaseMs/4 while it runs. */
  leaseMs?: number;
  /** How often (service clock) the recurring schedules are checked. */
  scheduleCheckMs?: number;
  /**
   * Lanes that run only the registry's concurrent job types (callback deliveries), beside the main loop;
   * default WORKER_CALLBACK_CONCURRENCY. 0 leaves every job to the main loop, one at a time.
   */
  concurrentLanes?: number;
}

const DEFAULTS = { pollMs: 1000, scheduleCheckMs: 15_000 };

/** Longest pause between polls while the database keeps failing. */
export const MAX_POLL_BACKOFF_MS = 30_000;

/**
 * Pause before the next poll after `failures` polls in a row failed (0: the normal poll interval).
 * Doubles per failure up to MAX_POLL_BACKOFF_MS, so a database that is down for minutes sees a few polls
 * from each worker instead of one a second, and a brief outage still recovers within seconds.
 */
export function pollDelayMs(pollMs: number, failures: number): number {
  if (failures <= 0) return pollMs;
  return Math.min(Math.max(pollMs, 250) * 2 ** Math.min(failures, 16), MAX_POLL_BACKOFF_MS);
}

/** One polling loop of a worker: the main loop (every type, the schedules) or a concurrent lane. */
interface Loop {
  name: string;
  /** The types it claims; undefined: every type. */
  types: readonly string[] | undefined;
  /** Set while it sleeps: ends the sleep. */
  wake: (() => void) | null;
}

/**
 * Runs due jobs until stopped: the main loop runs every type one at a time, and concurrentLanes more loops
 * run only the concurrent types (I/O-bound work such as callback deliveries, which would otherwise queue
 * behind one another while each waits on a partner). Several workers (in one process or many) can share a
 * database: claims are atomic (src/jobs/lease.ts). A job handler's failure, or a database error, is logged
 * and never ends a loop. A job queued in this process wakes a sleeping loop at once
 * (src/db/outbox-notify.ts); jobs queued elsewhere are found by polling. stop() lets the running jobs finish first.
 */
export class JobWorker {
  readonly id: string;
  private readonly registry: JobRegistry;
  private readonly schedules: RecurringJob[];
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly scheduleCheckMs: number;
  private readonly loops: Loop[];
  private readonly concurrentTypes: ReadonlySet<string>;
  private nextScheduleCheck = 0;
  private schedulesEnsured = false;
  private stopping = false;
  private running: Promise<void> | null = null;
  private stopListening: (() => void) | null = null;

  constructor(
    private readonly deps: Deps,
    options: WorkerOptions = {},
  ) {
    this.id = options.id ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.registry = options.registry ?? defaultJobRegistry();
    this.schedules = options.schedules ?? RECURRING_JOBS;
    this.pollMs = options.pollMs ?? DEFAULTS.pollMs;
    this.leaseMs = options.leaseMs ?? deps.config.jobLeaseMs;
    this.scheduleCheckMs = options.scheduleCheckMs ?? DEFAULTS.scheduleCheckMs;
    const concurrentTypes = this.registry.concurrentTypes();
    this.concurrentTypes = new Set(concurrentTypes);
    const lanes = concurrentTypes.length === 0 ? 0 : (options.concurrentLanes ?? deps.config.workerCallbackConcurrency);
    this.loops = [{ name: 'main', types: undefined, wake: null }];
    for (let i = 1; i <= lanes; i++) this.loops.push({ name: `lane ${i}`, types: concurrentTypes, wake: null });
  }

  /** Starts the loops in the background. */
  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.stopListening = onJobsQueued((type) => this.wakeOneFor(type));
    this.deps.log.info({ worker: this.id, types: this.registry.types(), concurrentLanes: this.loops.length - 1 }, 'job worker started');
    this.running = Promise.all(this.loops.map((loop) => this.runLoop(loop))).then(() => undefined);
  }

  /** Asks the loops to end and waits for the jobs in hand to finish. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.stopListening?.();
    this.stopListening = null;
    for (const loop of this.loops) loop.wake?.();
    await this.running;
    this.running = null;
    this.deps.log.info({ worker: this.id }, 'job worker stopped');
  }

  /** Wakes one sleeping loop that can run `type`: a lane for a concurrent type, else the main loop. */
  private wakeOneFor(type: string): void {
    if (this.stopping) return;
    const candidates = this.concurrentTypes.has(type) ? this.loops.slice(1).concat(this.loops[0]!) : [this.loops[0]!];
    candidates.find((loop) => loop.wake !== null)?.wake?.();
  }

  private async runLoop(loop: Loop): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      let ran = false;
      try {
        if (loop.types === undefined) await this.runSchedulesIfDue();
        // A lane's steps are short, but many lanes resuming in the same turn add up: they share one allowance.
        else await backgroundTurns.take();
        const startedAt = this.deps.clock.now();
        const job = await claimNextJob(this.deps.db, this.id, startedAt, this.leaseMs, loop.types);
        if (job) {
          ran = true;
          // More may be due (a burst): bring one more sleeping lane in, which does the same in turn.
          if (this.concurrentTypes.has(job.type)) this.loops.slice(1).find((other) => other !== loop && other.wake !== null)?.wake?.();
          await this.execute(job, startedAt);
        }
        if (failures > 0) this.deps.log.info({ worker: this.id, loop: loop.name, failures }, 'job worker polls succeed again');
        failures = 0;
      } catch (error) {
        // The database may be unreachable for a while (restart, failover): back off instead of spinning.
        failures++;
        const retryInMs = pollDelayMs(this.pollMs, failures);
        const fields = { err: error, worker: this.id, loop: loop.name, failures, retryInMs };
        if (isDatabaseUnavailable(error)) this.deps.log.warn(fields, 'job worker poll failed: the database is unavailable');
        else this.deps.log.error(fields, 'job worker poll failed');
      }
      if (!ran && !this.stopping) await this.sleep(loop, pollDelayMs(this.pollMs, failures));
    }
  }

  private sleep(loop: Loop, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      loop.wake = done;
    }).finally(() => {
      loop.wake = null;
    });
  }

  /** Enqueues the recurring jobs that are due, at most every scheduleCheckMs of service time. */
  async runSchedulesIfDue(): Promise<number[]> {
    const now = this.deps.clock.now();
    if (now.getTime() < this.nextScheduleCheck) return [];
    this.nextScheduleCheck = now.getTime() + this.scheduleCheckMs;
    return this.runSchedules(now);
  }

  /** Enqueues the recurring jobs due at `now` (ignores the check interval). */
  async runSchedules(now = this.deps.clock.now()): Promise<number[]> {
    if (this.schedules.length === 0) return [];
    if (!this.schedulesEnsured) {
      await ensureSchedules(this.deps.db, this.schedules, now);
      this.schedulesEnsured = true;
    }
    return enqueueDueSchedules(this.deps.db, this.schedules, now);
  }

  /** Claims and runs one due job; false when none was due. */
  async runOnce(): Promise<boolean> {
    const startedAt = this.deps.clock.now();
    const job = await claimNextJob(this.deps.db, this.id, startedAt, this.leaseMs);
    if (!job) return false;
    await this.execute(job, startedAt);
    return true;
  }

  /** Runs due jobs until none is left (tests and one-shot runs); returns how many ran. */
  async runUntilIdle(): Promise<number> {
    let count = 0;
    while (await this.runOnce()) count++;
    return count;
  }

  private async execute(job: Job, startedAt: Date): Promise<FinishResult> {
    const log = this.deps.log.child({ jobId: job.id, jobType: job.type, attempt: job.attempts, worker: this.id });
    let outcome: AttemptOutcome;
    let recorded: FinishResult | null = null;
    if (job.attempts > job.maxAttempts) {
      // Taken over after the worker of the last allowed attempt died mid-run: no attempt is left.
      outcome = { ok: false, error: 'the worker running the last attempt stopped before finishing (lease expired)' };
    } else {
      ({ outcome, recorded } = await this.callHandler(job, startedAt, log));
    }
    // The handler committed the job's success with its own work (JobRun.succeedIn): nothing is left to record.
    if (recorded) outcome = { ok: true };
    const result = recorded ?? (await finishAttempt(this.deps.db, job, this.id, startedAt, this.deps.clock.now(), outcome));
    if (result.status === null) log.warn('job lease was lost before the attempt finished; its result is not recorded');
    else if (result.status === 'SUCCEEDED') log.info('job succeeded');
    else if (result.status === 'PENDING') log.warn({ error: outcome.ok ? null : outcome.error, retryAt: result.nextRunAt }, 'job failed; will retry');
    else {
      log.error({ error: outcome.ok ? null : outcome.error }, 'job failed for the last time; it is DEAD');
      await this.runDeadHandler(job, outcome.ok ? '' : outcome.error, log);
    }
    return result;
  }

  private async runDeadHandler(job: Job, error: string, log: Deps['log']): Promise<void> {
    const onDead = this.registry.onDead(job.type);
    if (!onDead) return;
    try {
      await onDead(this.deps, job, error);
    } catch (failure) {
      log.error({ err: failure }, 'the handler for a DEAD job failed; what the job worked on may be left in progress');
    }
  }

  private async callHandler(job: Job, startedAt: Date, log: Deps['log']): Promise<{ outcome: AttemptOutcome; recorded: FinishResult | null }> {
    const handler = this.registry.get(job.type);
    if (!handler) return { outcome: { ok: false, error: `no handler for job type "${job.type}" in this worker` }, recorded: null };
    let recorded: FinishResult | null = null;
    const run: JobRun = {
      succeedIn: async (tx) => {
        const result = await finishAttemptIn(tx, job, this.id, startedAt, this.deps.clock.now(), { ok: true });
        afterCommit(tx, () => (recorded = result));
      },
    };
    // Keep the lease while the job runs, so no other worker takes it over; the lease is short (a dead worker's
    // job is taken over soon), so it is renewed four times per lease. Job steps are bounded (they give the
    // event loop a turn between chunks), so the heartbeat fires on time.
    const heartbeat = setInterval(() => {
      renewLease(this.deps.db, job, this.id, this.deps.clock.now(), this.leaseMs).catch((error: unknown) =>
        log.warn({ err: error }, 'could not renew the job lease'),
      );
    }, Math.max(1000, Math.floor(this.leaseMs / 4)));
    heartbeat.unref();
    try {
      await handler(this.deps, job, run);
      return { outcome: { ok: true }, recorded };
    } catch (error) {
      return { outcome: { ok: false, error: describeError(error) }, recorded };
    } finally {
      clearInterval(heartbeat);
    }
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/** Creates and starts a worker (the server's inline worker and `cli worker`). */
export function startWorker(deps: Deps, options: WorkerOptions = {}): JobWorker {
  const worker = new JobWorker(deps, options);
  worker.start();
  return worker;
}
