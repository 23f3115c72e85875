import type { ReportRecord } from '../../../../domain/reports/model.js';
import { IMPORT_TYPE_TITLES } from '../../../../domain/reports/imports/import-guides.js';
import type { ImportType } from '../../../../domain/reports/model.js';
import { Badge, type Tone } from '../../components.js';

const TONES: Record<string, Tone> = { PENDING: 'none', PROCESSING: 'warn', COMPLETE: 'ok', CANCELED: 'bad' };

export const isFinal = (status: string) => status === 'COMPLETE' || status === 'CANCELED';

/** An import type in a seller's words (export types are already words); an unknown one as it is. */
export function importTitle(type: string | null): string {
  if (type === null) return '';
  return Object.hasOwn(IMPORT_TYPE_TITLES, type) ? IMPORT_TYPE_TITLES[type as ImportType] : type;
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
