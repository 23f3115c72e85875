import type { ReportRecord } from '../../../../domain/reports/model.js';
import { importGuides } from '../../../../domain/reports/imports/import-guides.js';
import { Badge, type Tone } from '../../components.js';

const TONES: Record<string, Tone> = { PENDING: 'none', PROCESSING: 'warn', COMPLETE: 'ok', CANCELED: 'bad' };

export const isFinal = (status: string) => status === 'COMPLETE' || status === 'CANCELED';

/** Import types in a seller's words (the guides' titles); export types are already words. */
const IMPORT_TITLES = new Map(importGuides({ warehouseName: null, skus: [] }).map((g) => [g.type as string, g.title]));

export function importTitle(type: string | null): string {
  return type === null ? '' : (IMPORT_TITLES.get(type) ?? type);
}

/** Report and validation states in a seller's words (the API's names stay in the API). */
const WORDS: Record<string, string> = { PENDING: 'Waiting', PROCESSING: 'Running', COMPLETE: 'Done', CANCELED: 'Canceled' };

export function ReportStatus({ status }: { status: string }) {
  return <Badge tone={TONES[status] ?? 'none'} text={WORDS[status] ?? status} />;
}

/** Progress in words: lines read of the lines in the file (imports), applied and refused. */
export function progressText(r: ReportRecord): string {
  if (r.isExport) return r.status === 'COMPLETE' ? `${r.linesSuccessfullyProcessed} rows written` : `${r.totalLines} rows so far`;
  const of = r.expectedLines === null ? '' : ` of ${r.expectedLines}`;
  return `${r.totalLines}${of} lines read, ${r.linesSuccessfullyProcessed} applied, ${r.linesWithErrors} with errors`;
}
