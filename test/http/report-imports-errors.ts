import path from 'node:path';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { readCsvRecords, type CsvRecord } from '../../src/domain/reports/csv/read-records.js';
import { importKind } from '../../src/domain/reports/imports/kinds.js';
import type { ImportContext, LineError } from '../../src/domain/reports/imports/types.js';
import { lineChunks } from '../../src/domain/reports/imports/chunks.js';
import type { ImportType } from '../../src/domain/reports/model.js';
import type { TestApp } from '../helpers/app.js';
import { lineErrors as errorsCsv } from '../helpers/reports.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

/** Shared by the Kits and Orders import tests (not a test file itself). */

/** The errors CSV with each record's quoting undone, one `line,column,message` per line, for matching. */
export async function lineErrors(t: TestApp, token: string, reportId: number): Promise<string> {
  const csv = await errorsCsv(t, token, reportId);
  return csv
    .split(/\r?\n/)
    .map((record) => {
      const cells: string[] = [];
      for (const m of record.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)) cells.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : (m[2] ?? ''));
      return cells.join(',');
    })
    .join('\n');
}

/**
 * Runs an import type the way import validation does (processChunk with apply false, the file cut into chunks
 * by the runner's own lineChunks) and answers the file lines it would refuse, sorted; the database is only read.
 */
export async function validationErrorLines(t: TestApp, type: ImportType, csv: string, options: Partial<ImportContext> & { accountId: number }): Promise<number[]> {
  const kind = importKind(type);
  const ctx: ImportContext = { overwriteWithBlank: false, createNewProducts: false, insertOnly: false, templateId: null, integrationId: null, now: new Date(), ...options };
  const records: CsvRecord[] = [];
  for await (const r of readCsvRecords(Readable.from([Buffer.from(csv)]), ',')) records.push(r);
  const [header, ...data] = records;
  const prepared = await kind.prepare(t.deps.db.db, ctx, header!.cells);
  if (!prepared.ok) throw new Error(prepared.error);
  // The lines as the runner cuts them (ragged rows and groups included), as one chunk.
  const errors: LineError[] = [];
  for await (const chunk of lineChunks(Readable.from(data), kind, prepared.plan, header!.cells.length, 0)) {
    errors.push(...chunk.errors, ...(await kind.processChunk(t.deps.db.db, ctx, prepared.plan, chunk.parsed, false)));
  }
  return [...new Set(errors.map((e) => e.line))].sort((a, b) => a - b);
}

/** The lines with an error in an errors CSV as lineErrors answers it. */
export function errorLinesOf(errors: string): number[] {
  return [...new Set(errors.split('\n').slice(1).filter((l) => l !== '').map((l) => Number(l.split(',')[0])))].sort((a, b) => a - b);
}

/** The sample files of docs/partners/imports-kits-orders.md, in order (Kits, then Orders). */
export function guideSamples(): string[] {
  const guide = readFileSync(path.join(REPO_ROOT, 'docs/partners/imports-kits-orders.md'), 'utf8');
  return [...guide.matchAll(/```csv\n([\s\S]*?)```/g)].map((m) => m[1]!);
}
