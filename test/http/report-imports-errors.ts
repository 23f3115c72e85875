import type { TestApp } from '../helpers/app.js';
import { lineErrors as errorsCsv } from '../helpers/reports.js';

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
