import type { Readable } from 'node:stream';
import type { ReportPorts } from '../ports.js';
import { CsvFileError, readCsvRecords, type CsvRecord } from '../csv/read-records.js';
import { checkHeader } from './file-checks.js';
import type { ImportContext, ImportKind, LineError } from './types.js';

/** Opens a stored import file for reading (each pass opens it again); a file no longer stored is a CsvFileError. */
export function storedFileOpener(deps: Pick<ReportPorts, 'files'>, accountId: number, fileId: number): () => Promise<Readable> {
  return async () => {
    const stream = await deps.files.read(accountId, fileId);
    if (!stream) throw new CsvFileError('is no longer stored (removed by the retention sweep?)', 0);
    return stream;
  };
}

export type FileStart<Plan> =
  | { ok: true; header: string[]; dataLines: number; plan: Plan; notes: LineError[] }
  /** unreadable: not CSV (or not stored) from `line` on; empty: no record; header: the header cannot be read as the type's. */
  | { ok: false; problem: 'unreadable' | 'empty' | 'header'; message: string; line: number };

/**
 * The first pass over an import file, for the import and for validation alike: reads it through (a file
 * that stops being CSV at line 90,000 is refused before line 1 is applied), counts its data lines, checks
 * the header and lets the type read it (prepare). The second pass then reads the lines in chunks.
 */
export async function readFileStart<Plan, Row>(
  open: () => Promise<Readable>,
  delimiter: string,
  kind: ImportKind<Plan, Row>,
  db: Parameters<ImportKind<Plan, Row>['prepare']>[0],
  ctx: ImportContext,
): Promise<FileStart<Plan>> {
  let header: CsvRecord | null = null;
  let dataLines = 0;
  try {
    for await (const record of readCsvRecords(await open(), delimiter)) {
      if (header === null) header = record;
      else dataLines++;
    }
  } catch (error) {
    if (error instanceof CsvFileError) return { ok: false, problem: 'unreadable', message: error.message, line: error.line };
    throw error;
  }
  if (header === null) return { ok: false, problem: 'empty', message: 'the file is empty: it needs a header line and a line per record', line: 0 };
  const headerProblem = checkHeader(header.cells, delimiter);
  if (headerProblem) return { ok: false, problem: 'header', message: headerProblem, line: 1 };
  const prepared = await kind.prepare(db, ctx, header.cells);
  if (!prepared.ok) return { ok: false, problem: 'header', message: prepared.error, line: 1 };
  return { ok: true, header: header.cells, dataLines, plan: prepared.plan, notes: prepared.notes };
}

/** The records after the header. */
export async function* dataRecords(records: AsyncIterable<CsvRecord>): AsyncGenerator<CsvRecord> {
  let first = true;
  for await (const record of records) {
    if (first) first = false;
    else yield record;
  }
}
