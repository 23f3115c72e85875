import type { ReportPorts } from '../ports.js';
import { withTx, type Db } from '../../../db/tx.js';
import { CsvFileError, readCsvRecords } from '../csv/read-records.js';
import { chunkPacer, lineChunks } from '../imports/chunks.js';
import { dataRecords, readFileStart, storedFileOpener } from '../imports/file-start.js';
import type { ImportContext, ImportKind, LineError, ParsedLine } from '../imports/types.js';
import type { ImportType } from '../model.js';
import { validationContext } from './create-validation.js';
import { fileDelimiter } from '../csv/delimiter.js';
import { importKind } from '../imports/kinds.js';
import { moveValidationStatus } from './validation-status.js';
import { GROUP_FILE, GROUP_HEADER, GROUP_LINE, type ValidationOptions, type ValidationResult, type ValidationRow } from './model.js';

/** The pieces of the process a run uses (src/domain/reports/ports.ts). */
type ValidationPorts = Pick<ReportPorts, 'db' | 'clock' | 'files'>;

/** The validation ended meanwhile, or another run holds a later checkpoint: the chunk in hand rolls back. */
class ValidationStopped extends Error {}

/** A refused line's problem, grouped by the column the seller fixes ("line" for the whole line). */
export const lineResult = (e: LineError): ValidationResult => ({
  group: e.column === '' ? GROUP_LINE : e.column,
  row: e.line,
  column: e.column,
  severity: 'ERROR',
  message: e.message,
});
/** A note on the header that does not stop the import (an ignored column). */
const noteResult = (e: LineError): ValidationResult => ({ group: GROUP_HEADER, row: e.line, column: e.column, severity: 'WARNING', message: e.message });
const headerError = (message: string): ValidationResult => ({ group: GROUP_HEADER, row: 1, column: '', severity: 'ERROR', message: `${message}; no line can be imported` });
const fileError = (message: string, row: number): ValidationResult => ({ group: GROUP_FILE, row, column: '', severity: 'ERROR', message });

/**
 * Validates every line of a validation (PROCESSING) with the same code the import runs — the type's
 * prepare, parseLine and processChunk with apply = false — so validation and import never disagree about
 * a line. Structured like the import runner (src/domain/reports/imports/run-import.ts): lines go in chunks
 * sized as the import's (ChunkPacer; the lines of one group, such as an order, stay together); each chunk
 * is one transaction that advances the checkpoint (lines_done) with a conditional update and stores the chunk's
 * results, so a run killed at any moment resumes after the last chunk committed, never storing a result
 * twice. Like the import it reads the file twice: a file that cannot be read as CSV, or whose header
 * cannot be read, ends with that one problem (group "file" or "header"), as the import refuses it whole.
 */
export async function runValidation(deps: ValidationPorts, validation: ValidationRow, options: ValidationOptions): Promise<void> {
  const db = deps.db.db;
  const kind = importKind(validation.import_type as ImportType);
  const delimiter = fileDelimiter(options.delimiter);

  const ctx = validationContext(validation.account_id, { integrationId: validation.integration_id, templateId: validation.template_id }, options, deps.clock.now());
  const open = storedFileOpener(deps, validation.account_id, validation.source_file_id);

  // First pass, as the import's: a file that is not CSV from some line on is refused whole by the
  // import, so that one problem is the validation's result (the lines before it are not judged: the
  // reader cannot say reliably how many of them it delivered before the break).
  const start = await readFileStart(open, delimiter, kind, db, ctx);
  if (!start.ok) {
    const result =
      start.problem === 'header'
        ? headerError(start.message)
        : fileError(start.problem === 'empty' ? start.message : `${start.message}; the import would refuse the whole file`, start.line);
    return finish(deps, validation, validation.lines_done, [result]);
  }
  const plan = start.plan;

  let done = validation.lines_done;
  // Header notes are stored with the first commit of a run that starts at line 0, so exactly once.
  let pending: ValidationResult[] = done === 0 ? start.notes.map(noteResult) : [];
  const pacer = chunkPacer(deps.db.dialect);
  try {
    for await (const chunk of lineChunks(dataRecords(readCsvRecords(await open(), delimiter)), kind, plan, start.header.length, done, pacer)) {
      const began = performance.now();
      const ok = await commitChunk(deps, kind, ctx, plan, validation, done, chunk.lines, chunk.parsed, [...pending, ...chunk.errors.map(lineResult)]);
      if (!ok) return;
      pacer.took(chunk.lines, performance.now() - began);
      done += chunk.lines;
      pending = [];
    }
  } catch (error) {
    // Only a file removed since the first pass gets here; a retry would not bring it back.
    if (!(error instanceof CsvFileError)) throw error;
    return finish(deps, validation, done, [...pending, fileError(`${error.message}; the validation stopped`, error.line)]);
  }
  await finish(deps, validation, done, pending);
}

async function commitChunk(
  deps: ValidationPorts,
  kind: ImportKind,
  ctx: ImportContext,
  plan: unknown,
  validation: ValidationRow,
  done: number,
  lines: number,
  parsed: ParsedLine<unknown>[],
  earlier: ValidationResult[],
): Promise<boolean> {
  try {
    await withTx(deps.db.db, async (tx) => {
      const claimed = await tx
        .updateTable('import_validations')
        .set({ lines_done: done + lines, updated_at: deps.clock.now().toISOString() })
        .where('id', '=', validation.id)
        .where('status', '=', 'PROCESSING')
        .where('lines_done', '=', done)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new ValidationStopped();
      const refused = await kind.processChunk(tx, { ...ctx, now: deps.clock.now() }, plan, parsed, false);
      // Header notes, parse problems and refusals of one chunk, in file order (the sort is stable).
      await insertResults(tx, validation, [...earlier, ...refused.map(lineResult)].sort((a, b) => a.row - b.row));
    });
    return true;
  } catch (error) {
    if (error instanceof ValidationStopped) return false;
    throw error;
  }
}

/** Ends the validation COMPLETE, storing the last results, unless another run got there first. */
async function finish(deps: ValidationPorts, validation: ValidationRow, done: number, results: ValidationResult[]): Promise<void> {
  const now = deps.clock.now().toISOString();
  const fileProblem = results.find((r) => r.group === GROUP_FILE || (r.group === GROUP_HEADER && r.severity === 'ERROR'));
  await withTx(deps.db.db, async (tx) => {
    const ended = await moveValidationStatus(
      tx,
      validation,
      { from: 'PROCESSING', to: 'COMPLETE', atLinesDone: done },
      { completed_at: now, updated_at: now, error_message: fileProblem?.message ?? null },
    );
    if (ended) await insertResults(tx, validation, results);
  });
}

async function insertResults(tx: Db, validation: Pick<ValidationRow, 'id' | 'account_id'>, results: ValidationResult[]): Promise<void> {
  // Multi-row inserts in slices, as the import stores its line errors.
  for (let i = 0; i < results.length; i += 200) {
    await tx
      .insertInto('import_validation_results')
      .values(
        results.slice(i, i + 200).map((r) => ({
          account_id: validation.account_id,
          validation_id: validation.id,
          group_name: r.group,
          row_number: r.row,
          column_name: r.column,
          severity: r.severity,
          message: r.message,
        })),
      )
      .execute();
  }
}

/** Ends a validation whose job gave up (the last attempt failed): COMPLETE with the reason as a "file" result. */
export async function failValidation(deps: ValidationPorts, validationId: number, accountId: number, message: string): Promise<void> {
  const now = deps.clock.now().toISOString();
  await withTx(deps.db.db, async (tx) => {
    const ended = await moveValidationStatus(
      tx,
      { id: validationId, account_id: accountId },
      { from: ['PENDING', 'PROCESSING'], to: 'COMPLETE' },
      { completed_at: now, updated_at: now, error_message: message },
    );
    if (ended) {
      await insertResults(tx, { account_id: accountId, id: validationId }, [fileError(`${message}; the validation stopped`, 0)]);
    }
  });
}
