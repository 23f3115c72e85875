import type { ReportPorts } from '../ports.js';
import { withTx, type Db } from '../../../db/tx.js';
import { CsvFileError, readCsvRecords } from '../csv/read-records.js';
import { fileDelimiter } from '../csv/delimiter.js';
import { reportOptions, type ImportType, type ReportRow } from '../model.js';
import { importKind } from './kinds.js';
import { failReport } from '../fail-report.js';
import { moveReportStatus } from '../report-status.js';
import { dataRecords, readFileStart, storedFileOpener } from './file-start.js';
import { chunkPacer, lineChunks } from './chunks.js';
import type { ImportContext, ImportKind, LineError, ParsedLine } from './types.js';

/** The pieces of the process a run uses (src/domain/reports/ports.ts). */
type ImportPorts = Pick<ReportPorts, 'db' | 'clock' | 'files'>;

export function importContextOf(report: ReportRow, now: Date): ImportContext {
  const options = reportOptions(report);
  return {
    accountId: report.account_id,
    overwriteWithBlank: options.overwriteWithBlank === true,
    createNewProducts: options.createNewProducts === true,
    insertOnly: options.insertOnly === true,
    templateId: report.template_id,
    integrationId: report.integration_id,
    now,
  };
}

/** The report ended early: canceled, or another worker holds a later checkpoint. Rolls a chunk back. */
class ImportStopped extends Error {}

/**
 * Runs an import report (PROCESSING) to its end, resumably. The file is read twice: a first pass checks
 * that it is readable CSV and counts its lines (a file broken at line 90,000 is refused before line 1 is
 * applied); the second applies it in chunks (ChunkPacer: on SQLite as many lines as fit in about 15 ms, on
 * PostgreSQL IMPORT_CHUNK_LINES). Each chunk is one transaction that advances the checkpoint (lines_done)
 * with a conditional update — only while the report is PROCESSING and still at the checkpoint this run
 * read — applies its lines and records their errors. A worker killed at
 * any moment leaves either all of a chunk or none of it; the next run skips the lines already done, so no
 * line is applied twice or lost. A cancel lands between chunks (the chunk in flight rolls back).
 */
export async function runImport(deps: ImportPorts, report: ReportRow): Promise<void> {
  const db = deps.db.db;
  const kind = importKind(report.report_type as ImportType);
  const delimiter = fileDelimiter(reportOptions(report).delimiter);
  if (report.source_file_id === null) return failReport(deps, report, 'the import has no file');
  const open = storedFileOpener(deps, report.account_id, report.source_file_id);
  const ctx = importContextOf(report, deps.clock.now());
  const start = await readFileStart(open, delimiter, kind, db, ctx);
  if (!start.ok) return failReport(deps, report, start.problem === 'empty' ? start.message : `${start.message}; nothing was imported`);
  const started = await recordStart(deps, report, start.header, start.dataLines, start.notes);
  if (!started) return;

  let done = report.lines_done;
  const pacer = chunkPacer(deps.db.dialect);
  try {
    for await (const chunk of lineChunks(dataRecords(readCsvRecords(await open(), delimiter)), kind, start.plan, start.header.length, done, pacer)) {
      const began = performance.now();
      const ok = await commitChunk(deps, kind, ctx, start.plan, report, done, chunk.lines, chunk.parsed, chunk.errors);
      if (!ok) return;
      pacer.took(chunk.lines, performance.now() - began);
      done += chunk.lines;
      await deps.db.relieveWal?.();
    }
  } catch (error) {
    // The first pass read this file through, so only a file removed since gets here: a retry would not
    // bring it back, so the report ends now, saying how far it got.
    if (!(error instanceof CsvFileError)) throw error;
    return failReport(deps, report, `${error.message}; ${done.toLocaleString('en-US')} ${done === 1 ? 'line was' : 'lines were'} imported before it`);
  }
  await finishImport(deps, report, done);
}

/** Records the header, the line count and the header notes, once (a resumed run finds them there). */
async function recordStart(deps: ImportPorts, report: ReportRow, header: string[], dataLines: number, notes: LineError[]): Promise<boolean> {
  const now = deps.clock.now().toISOString();
  return withTx(deps.db.db, async (tx) => {
    const current = await tx.selectFrom('reports').select(['status', 'expected_lines']).where('id', '=', report.id).executeTakeFirst();
    if (!current || current.status !== 'PROCESSING') return false;
    if (current.expected_lines !== null) return true;
    await tx
      .updateTable('reports')
      .set({ column_types: JSON.stringify(header), expected_lines: dataLines, updated_at: now })
      .where('id', '=', report.id)
      .where('status', '=', 'PROCESSING')
      .execute();
    await insertLineErrors(tx, report, notes);
    return true;
  });
}

async function commitChunk(
  deps: ImportPorts,
  kind: ImportKind,
  ctx: ImportContext,
  plan: unknown,
  report: ReportRow,
  done: number,
  lines: number,
  parsed: ParsedLine<unknown>[],
  parseErrors: LineError[],
): Promise<boolean> {
  try {
    await withTx(deps.db.db, async (tx) => {
      // First statement of the chunk: it takes the report row (PostgreSQL row lock; SQLite's one writer), so
      // a cancel either lands before (this chunk rolls back) or waits for the chunk to commit.
      const claimed = await tx
        .updateTable('reports')
        .set({ lines_done: done + lines, total_lines: done + lines, updated_at: deps.clock.now().toISOString() })
        .where('id', '=', report.id)
        .where('status', '=', 'PROCESSING')
        .where('lines_done', '=', done)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new ImportStopped();
      const refused = await kind.processChunk(tx, { ...ctx, now: deps.clock.now() }, plan, parsed, true);
      const errors = [...parseErrors, ...refused];
      const errorLines = new Set(errors.map((e) => e.line)).size;
      await tx
        .updateTable('reports')
        .set((eb) => ({
          lines_processed: eb('lines_processed', '+', lines - errorLines),
          error_lines: eb('error_lines', '+', errorLines),
        }))
        .where('id', '=', report.id)
        .execute();
      await insertLineErrors(tx, report, errors.sort((a, b) => a.line - b.line));
    });
    return true;
  } catch (error) {
    if (error instanceof ImportStopped) return false;
    throw error;
  }
}

async function insertLineErrors(tx: Db, report: ReportRow, errors: LineError[]): Promise<void> {
  // Multi-row inserts in slices: one statement per line error would dominate a chunk full of bad lines.
  for (let i = 0; i < errors.length; i += 200) {
    await tx
      .insertInto('report_line_errors')
      .values(errors.slice(i, i + 200).map((e) => ({ account_id: report.account_id, report_id: report.id, line: e.line, column_name: e.column, message: e.message })))
      .execute();
  }
}

async function finishImport(deps: ImportPorts, report: ReportRow, done: number): Promise<void> {
  const now = deps.clock.now().toISOString();
  await moveReportStatus(deps.db.db, report, { from: 'PROCESSING', to: 'COMPLETE', atLinesDone: done }, { completed_at: now, updated_at: now });
}
