import type { ReportPorts } from '../ports.js';
import { withTx, type Db } from '../../../db/tx.js';
import { enqueueJob } from '../../../db/outbox.js';
import type { StoredFile } from '../../../db/file-store/index.js';
import { invalidField, notFound } from '../../errors.js';
import { fileDelimiter } from '../csv/delimiter.js';
import { checkImportOptions } from '../imports/options.js';
import { checkHeader } from '../imports/file-checks.js';
import type { ImportContext } from '../imports/types.js';
import { definitionIdOf, type ImportDefinition } from './definition-id.js';
import { importKind } from '../imports/kinds.js';
import {
  RUN_IMPORT_VALIDATION_JOB,
  type RunImportValidationPayload,
  type ValidationOptions,
  type ValidationRow,
} from './model.js';
import { readPreview } from './preview.js';
import { VALIDATION_INITIAL_STATUS } from './validation-status.js';

export function validationContext(accountId: number, def: Pick<ImportDefinition, 'integrationId' | 'templateId'>, options: ValidationOptions, now: Date): ImportContext {
  return {
    accountId,
    overwriteWithBlank: options.overwriteWithBlank,
    createNewProducts: options.createNewProducts,
    insertOnly: options.insertOnly,
    templateId: def.templateId,
    integrationId: def.integrationId,
    now,
  };
}

/**
 * Creates a validation of a stored file (document 4.2, resolutions §3): reads the header and the first
 * rows for the preview, runs the type's prepare on the header to say which field each column is read as
 * (actual_headers: "" for a column the import ignores, [] when the header cannot be read at all), records
 * the validation PENDING and queues the job that checks every line, in one transaction. The definition
 * must already be resolved (resolveDefinition). An empty file is a 400, and so is one that stops being CSV
 * within the preview (the message names the line); one that stops further down is accepted, and its
 * validation reports where (group "file").
 */
export async function createValidation(
  deps: Pick<ReportPorts, 'db' | 'clock' | 'files'>,
  accountId: number,
  def: ImportDefinition,
  file: StoredFile,
  options: ValidationOptions,
): Promise<ValidationRow> {
  const db = deps.db.db;
  const kind = importKind(def.importType);
  checkImportOptions(options);
  const delimiter = fileDelimiter(options.delimiter);
  const source = await deps.files.read(accountId, file.id);
  if (!source) throw notFound(`file ${file.id} not found`);
  const preview = await readPreview(source, delimiter);
  // Broken within what this request reads: answered now, naming the line, rather than queued to fail.
  if (preview.error !== null) throw invalidField('file', preview.error.problem);
  if (preview.header === null) throw invalidField('file', 'is empty: send the CSV with its header line and a line per record');
  let actualHeaders: string[] = [];
  if (checkHeader(preview.header, delimiter) === null) {
    const prepared = await kind.prepare(db, validationContext(accountId, def, options, deps.clock.now()), preview.header);
    if (prepared.ok) actualHeaders = prepared.actualHeaders.map((h) => h ?? '');
  }
  const now = deps.clock.now();
  return withTx(db, async (tx) => {
    const row = await insertValidation(tx, accountId, def, file, {
      supplied: preview.header ?? [],
      actual: actualHeaders,
      rows: preview.rows,
    }, now);
    const payload: RunImportValidationPayload = { validationId: row.id, options };
    await enqueueJob(tx, { type: RUN_IMPORT_VALIDATION_JOB, payload, accountId, maxAttempts: 5 }, now);
    return row;
  });
}

async function insertValidation(
  tx: Db,
  accountId: number,
  def: ImportDefinition,
  file: StoredFile,
  preview: { supplied: string[]; actual: string[]; rows: string[][] },
  now: Date,
): Promise<ValidationRow> {
  const iso = now.toISOString();
  return tx
    .insertInto('import_validations')
    .values({
      account_id: accountId,
      definition_id: definitionIdOf(def),
      import_type: def.importType,
      integration_id: def.integrationId,
      template_id: def.templateId,
      status: VALIDATION_INITIAL_STATUS,
      supplied_headers: JSON.stringify(preview.supplied),
      actual_headers: JSON.stringify(preview.actual),
      first_rows: JSON.stringify(preview.rows),
      lines_done: 0,
      error_message: null,
      source_file_id: file.id,
      created_at: iso,
      completed_at: null,
      updated_at: iso,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** One validation of the account, or null (another account's is never found). */
export async function findValidation(db: Db, accountId: number, validationId: number): Promise<ValidationRow | null> {
  if (!Number.isSafeInteger(validationId)) return null;
  const row = await db.selectFrom('import_validations').selectAll().where('account_id', '=', accountId).where('id', '=', validationId).executeTakeFirst();
  return row ?? null;
}
