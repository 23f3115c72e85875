import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import {
  RUN_IMPORT_VALIDATION_JOB,
  type RunImportValidationPayload,
  type ValidationOptions,
  type ValidationRow,
} from '../../domain/reports/validation/model.js';
import { failValidation, runValidation } from '../../domain/reports/validation/run-validation.js';
import { moveValidationStatus } from '../../domain/reports/validation/validation-status.js';
import { errorSummary, type Job } from '../types.js';

export { RUN_IMPORT_VALIDATION_JOB };

/**
 * Runs an import validation (resolutions §3): PENDING → PROCESSING, every line checked, then COMPLETE.
 * The job may run again (a worker that died, a database outage): the validation resumes after its
 * checkpoint. When the job is DEAD the validation ends COMPLETE with the reason as a "file"
 * result, so none stays PROCESSING forever.
 */
export async function runImportValidation(deps: Deps, job: Job): Promise<void> {
  const { validationId, options } = (job.payload ?? {}) as Partial<RunImportValidationPayload>;
  if (job.accountId === null || !Number.isSafeInteger(validationId) || !isOptions(options)) {
    throw new Error(`malformed ${RUN_IMPORT_VALIDATION_JOB} job ${job.id}`);
  }
  const validation = await startValidation(deps, job.accountId, validationId!);
  if (!validation) return;
  await runValidation(deps, validation, options);
}

/** The job is DEAD: the validation ends COMPLETE with the reason as a "file" result, never PROCESSING forever. */
export async function importValidationJobDead(deps: Deps, job: Job, error: string): Promise<void> {
  const { validationId } = (job.payload ?? {}) as Partial<RunImportValidationPayload>;
  if (job.accountId === null || !Number.isSafeInteger(validationId)) return;
  await failValidation(deps, validationId!, job.accountId, `validation failed after ${job.attempts} attempts: ${errorSummary(error)}`);
}

function isOptions(value: unknown): value is ValidationOptions {
  const o = value as Partial<ValidationOptions> | null | undefined;
  return (
    typeof o?.createNewProducts === 'boolean' &&
    typeof o.overwriteWithBlank === 'boolean' &&
    typeof o.insertOnly === 'boolean' &&
    (o.delimiter === null || typeof o.delimiter === 'string')
  );
}

/** Moves the validation to PROCESSING (a resumed run finds it there); null when there is nothing left to run. */
async function startValidation(deps: Deps, accountId: number, validationId: number): Promise<ValidationRow | null> {
  const now = deps.clock.now().toISOString();
  return withTx(deps.db.db, async (tx) => {
    await moveValidationStatus(tx, { id: validationId, account_id: accountId }, { from: 'PENDING', to: 'PROCESSING' }, { updated_at: now });
    const row = await tx.selectFrom('import_validations').selectAll().where('account_id', '=', accountId).where('id', '=', validationId).executeTakeFirst();
    return row && row.status === 'PROCESSING' ? row : null;
  });
}
