import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Deps } from '../deps.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { claimNextJob, finishAttempt, renewLease, type AttemptOutcome, type FinishResult } from './lease.js';
import { defaultJobRegistry, type JobRegistry } from './registry.js';
import { RECURRING_JOBS, enqueueDueSchedules, ensureSchedules, type RecurringJob } from './schedules.js';
import type { Job } from './types.js';

export interface WorkerOptions {
  /** Lease owner name; default host:pid:random. */
  id?: string;
  registry?: JobRegistry;
  schedules?: RecurringJob[];
  /** Sleep between polls when nothing is due (real time). */
  pollMs?: number;
  /** How long a claimed job stays leased; renewed every leaseMs/3 while it runs. */
  leaseMs?: number;
  /** How often (service clock) the recurring schedules are checked. */
  scheduleCheckMs?: number;
}

const DEFAULTS = { pollMs: 1000, leaseMs: 5 * 60_000, scheduleCheckMs: 15_000 };

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

/**
 * Runs due jobs one at a time until stopped. Several workers (in one process or many) can share a
 * database: claims are atomic (src/jobs/lease.ts). A job handler's failure, or a database error, is logged
 * and never ends the loop. stop() lets the running job finish first.
 */
export class JobWorker {
  readonly id: string;
  private readonly registry: JobRegistry;
  private readonly schedules: RecurringJob[];
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly scheduleCheckMs: number;
  private nextScheduleCheck = 0;
  private schedulesEnsured = false;
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly deps: Deps,
    options: WorkerOptions = {},
  ) {
    this.id = options.id ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.registry = options.registry ?? defaultJobRegistry();
    this.schedules = options.schedules ?? RECURRING_JOBS;
    this.pollMs = options.pollMs ?? DEFAULTS.pollMs;
    this.leaseMs = options.leaseMs ?? DEFAULTS.leaseMs;
    this.scheduleCheckMs = options.scheduleCheckMs ?? DEFAULTS.scheduleCheckMs;
  }

  /** Starts the loop in the background. */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.deps.log.info({ worker: this.id, types: this.registry.types() }, 'job worker started');
    this.loop = this.runLoop();
  }

  /** Asks the loop to end and waits for the job in hand to finish. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.loop = null;
    this.deps.log.info({ worker: this.id }, 'job worker stopped');
  }

  private async runLoop(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      let ran = false;
      try {
        await this.runSchedulesIfDue();
        ran = await this.runOnce();
        if (failures > 0) this.deps.log.info({ worker: this.id, failures }, 'job worker polls succeed again');
        failures = 0;
      } catch (error) {
        // The database may be unreachable for a while (restart, failover): back off instead of spinning.
        failures++;
        const retryInMs = pollDelayMs(this.pollMs, failures);
        const fields = { err: error, worker: this.id, failures, retryInMs };
        if (isDatabaseUnavailable(error)) this.deps.log.warn(fields, 'job worker poll failed: the database is unavailable');
        else this.deps.log.error(fields, 'job worker poll failed');
      }
      if (!ran && !this.stopping) await this.sleep(pollDelayMs(this.pollMs, failures));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    }).finally(() => {
      this.wake = null;
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
    if (job.attempts > job.maxAttempts) {
      // Taken over after the worker of the last allowed attempt died mid-run: no attempt is left.
      outcome = { ok: false, error: 'the worker running the last attempt stopped before finishing (lease expired)' };
    } else {
      outcome = await this.callHandler(job, log);
    }
    const result = await finishAttempt(this.deps.db, job, this.id, startedAt, this.deps.clock.now(), outcome);
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

  private async callHandler(job: Job, log: Deps['log']): Promise<AttemptOutcome> {
    const handler = this.registry.get(job.type);
    if (!handler) return { ok: false, error: `no handler for job type "${job.type}" in this worker` };
    // Keep the lease while a long job runs, so no other worker takes it over.
    const heartbeat = setInterval(() => {
      renewLease(this.deps.db, job, this.id, this.deps.clock.now(), this.leaseMs).catch((error: unknown) =>
        log.warn({ err: error }, 'could not renew the job lease'),
      );
    }, Math.max(1000, Math.floor(this.leaseMs / 3)));
    heartbeat.unref();
    try {
      await handler(this.deps, job);
      return { ok: true };
    } catch (error) {
      return { ok: false, error: describeError(error) };
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
