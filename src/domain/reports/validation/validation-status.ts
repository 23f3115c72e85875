import type { UpdateObject } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Db } from '../../../db/tx.js';
import { checkMove, type StatusMove, type TransitionTable } from '../status-machine.js';
import type { ValidationRow, ValidationStatus } from './model.js';

/**
 * An import validation's life (resolutions §3): created PENDING; the job moves it to PROCESSING and then
 * COMPLETE. A validation never fails: a job that gives up ends it COMPLETE (from PENDING or PROCESSING)
 * with the reason as a "file" result. COMPLETE is final.
 */
export const VALIDATION_TRANSITIONS: TransitionTable<ValidationStatus> = {
  PENDING: ['PROCESSING', 'COMPLETE'],
  PROCESSING: ['COMPLETE'],
  COMPLETE: [],
};

/** The status a validation is recorded with (createValidation). */
export const VALIDATION_INITIAL_STATUS = 'PENDING' satisfies ValidationStatus;

/** The validation a move applies to. */
export interface ValidationKey {
  id: number;
  account_id: number;
}

/** What the move sets besides the status, in the same statement. */
export type ValidationMoveColumns = Omit<UpdateObject<Database, 'import_validations'>, 'id' | 'account_id' | 'status'>;

/**
 * The one writer of import_validations.status, as moveReportStatus is the reports': a conditional
 * UPDATE … WHERE status = from (or IN), answering the moved row, or null when another run moved it first
 * (a normal outcome). A move the table forbids throws INTERNAL before anything is written.
 */
export async function moveValidationStatus(
  db: Db,
  validation: ValidationKey,
  move: StatusMove<ValidationStatus>,
  columns: ValidationMoveColumns = {},
): Promise<ValidationRow | null> {
  const froms = checkMove('import validation', VALIDATION_TRANSITIONS, move);
  let update = db
    .updateTable('import_validations')
    .set({ ...columns, status: move.to })
    .where('account_id', '=', validation.account_id)
    .where('id', '=', validation.id);
  update = froms.length === 1 ? update.where('status', '=', froms[0]!) : update.where('status', 'in', froms);
  if (move.atLinesDone !== undefined) update = update.where('lines_done', '=', move.atLinesDone);
  return (await update.returningAll().executeTakeFirst()) ?? null;
}
