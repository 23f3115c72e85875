import type { JobDeadHandler, JobHandler } from './types.js';
import { EXPIRE_UNPAID_ORDER, runUnpaidOrderExpiry } from './handlers/expire-unpaid-orders.js';
import { IDEMPOTENCY_SWEEP, sweepIdempotencyKeys } from './handlers/idempotency-sweep.js';
import { BUILD_INGESTION_PLAN, runBuildIngestionPlan } from './handlers/build-ingestion-plan.js';
import { APPLY_INGESTION_JOB, applyIngestionJobDead, runApplyIngestion } from './handlers/apply-ingestion.js';
import { JOB_RETENTION_SWEEP, sweepFinishedJobs } from './handlers/job-retention-sweep.js';
import { RUN_REPORT_JOB, reportJobDead, runReport } from './handlers/run-report.js';
import { RUN_IMPORT_VALIDATION_JOB, importValidationJobDead, runImportValidation } from './handlers/run-import-validation.js';
import { DELIVER_CALLBACK, deliverCallbackJobDead, runDeliverCallback } from './handlers/deliver-callback.js';
import { REPORT_RETENTION_SWEEP, runReportRetentionSweep } from './handlers/report-retention-sweep.js';
import { APPLY_CHANNEL_RULES, runApplyChannelRules } from './handlers/apply-channel-rules.js';
import { PERSONAL_DATA_SWEEP, runPersonalDataSweep } from './handlers/personal-data-sweep.js';
import { WAITING_WORK_SWEEP, runWaitingWorkSweep } from './handlers/waiting-work-sweep.js';

/** Job type → handler. A worker runs only the types its registry knows; others fail and are retried. */
export class JobRegistry {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly deadHandlers = new Map<string, JobDeadHandler>();
  private readonly concurrent = new Set<string>();

  /**
   * `onDead` runs once the job is DEAD, so what it was working on is not left half-done forever.
   * `concurrent`: the job mostly waits on the network and does little database work (a callback
   * delivery), so a worker may run many at once in its concurrent lanes (worker.ts).
   */
  register(type: string, handler: JobHandler, onDead?: JobDeadHandler, options: { concurrent?: boolean } = {}): this {
    if (this.handlers.has(type)) throw new Error(`job type ${type} is already registered`);
    this.handlers.set(type, handler);
    if (onDead) this.deadHandlers.set(type, onDead);
    if (options.concurrent) this.concurrent.add(type);
    return this;
  }

  /** The types the concurrent lanes run. */
  concurrentTypes(): string[] {
    return [...this.concurrent];
  }

  get(type: string): JobHandler | undefined {
    return this.handlers.get(type);
  }

  onDead(type: string): JobDeadHandler | undefined {
    return this.deadHandlers.get(type);
  }

  types(): string[] {
    return [...this.handlers.keys()];
  }
}

/** Every job type of the service. Add a line here for a new type (its handler in src/jobs/handlers/). */
export function defaultJobRegistry(): JobRegistry {
  return new JobRegistry()
    .register(IDEMPOTENCY_SWEEP, sweepIdempotencyKeys)
    .register(EXPIRE_UNPAID_ORDER, runUnpaidOrderExpiry)
    .register(BUILD_INGESTION_PLAN, runBuildIngestionPlan)
    .register(APPLY_INGESTION_JOB, runApplyIngestion, applyIngestionJobDead)
    .register(JOB_RETENTION_SWEEP, sweepFinishedJobs)
    .register(RUN_REPORT_JOB, runReport, reportJobDead)
    .register(RUN_IMPORT_VALIDATION_JOB, runImportValidation, importValidationJobDead)
    .register(REPORT_RETENTION_SWEEP, runReportRetentionSweep)
    .register(WAITING_WORK_SWEEP, runWaitingWorkSweep)
    .register(APPLY_CHANNEL_RULES, runApplyChannelRules)
    .register(PERSONAL_DATA_SWEEP, runPersonalDataSweep)
    .register(DELIVER_CALLBACK, runDeliverCallback, deliverCallbackJobDead, { concurrent: true });
}
