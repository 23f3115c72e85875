import type { Selectable } from 'kysely';
import type { ImportValidationsTable } from '../../../db/schema.js';

/** Import validation states (resolutions §3). A validation never fails: a file it cannot read ends COMPLETE with a "file" result. */
export const VALIDATION_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETE'] as const;
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];

export type ValidationRow = Selectable<ImportValidationsTable>;

export const SEVERITIES = ['ERROR', 'WARNING'] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * Results are grouped by what the seller fixes: the file header a problem is in (a group per column), or
 * one of these three for problems that are not in one column.
 */
export const GROUP_FILE = 'file';
export const GROUP_HEADER = 'header';
export const GROUP_LINE = 'line';

/** One stored result (import_validation_results). `row` is the file line (the header is line 1); 0 when the problem is not at a line. */
export interface ValidationResult {
  group: string;
  row: number;
  column: string;
  severity: Severity;
  message: string;
}

/**
 * How the lines are read, as the import would be sent (document 2.9): the same defaults as POST
 * /v1/report (null equals false; delimiter ","). Carried in the job's payload.
 */
export interface ValidationOptions {
  createNewProducts: boolean;
  overwriteWithBlank: boolean;
  insertOnly: boolean;
  delimiter: string | null;
}

/** Data rows shown in the preview, and the longest cell shown there (a preview, not the file). */
export const PREVIEW_ROWS = 10;
export const PREVIEW_CELL_CHARS = 1000;

/** The job that validates every line (src/jobs/handlers/run-import-validation.ts). */
export const RUN_IMPORT_VALIDATION_JOB = 'import-validation.run';
export interface RunImportValidationPayload {
  validationId: number;
  options: ValidationOptions;
}
