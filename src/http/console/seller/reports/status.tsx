import type { ReportRecord } from '../../../../domain/reports/model.js';
import { Badge, type Tone } from '../../components.js';

const TONES: Record<string, Tone> = { PENDING: 'none', PROCESSING: 'warn', COMPLETE: 'ok', CANCELED: 'bad' };

export const isFinal = (status: string) => status === 'COMPLETE' || status === 'CANCELED';

export function ReportStatus({ status }: { status: string }) {
  return <Badge tone={TONES[status] ?? 'none'} text={status} />;
}

/** Progress in words: lines read of the lines in the file (imports), applied and refused. */
export function progressText(r: ReportRecord): string {
  if (r.isExport) return r.status === 'COMPLETE' ? `${r.linesSuccessfullyProcessed} rows written` : `${r.totalLines} rows so far`;
  const of = r.expectedLines === null ? '' : ` of ${r.expectedLines}`;
  return `${r.totalLines}${of} lines read, ${r.linesSuccessfullyProcessed} applied, ${r.linesWithErrors} with errors`;
}
