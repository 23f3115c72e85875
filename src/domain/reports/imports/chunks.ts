import type { CsvRecord } from '../csv/read-records.js';
import { checkRaggedRow } from './file-checks.js';
import type { ImportKind, LineError, ParsedLine } from './types.js';

/** Data lines applied (or validated) per transaction, and per checkpoint. */
export const IMPORT_CHUNK_LINES = 500;
/**
 * A group of lines that must stay together (one order, one kit) may grow a chunk by at most this many
 * lines. It is larger than any group a kind accepts (an order has at most 500 lines, a kit 50
 * components), so a group cut here was already refused whole by its kind in the chunk it began in.
 */
export const MAX_GROUP_LINES = 1000;

/** The data lines of one chunk: how many, the lines the kind reads, and the lines refused before it. */
export interface LineChunk<Row> {
  lines: number;
  parsed: ParsedLine<Row>[];
  errors: LineError[];
}

/**
 * Cuts a file's data records (header excluded) into chunks, skipping the first `skip` (the checkpoint of a
 * resumed run). The one place where lines become chunks, for the import and for validation alike, so the
 * two read every line the same way:
 * - a ragged row is refused; in a grouped type it still joins its group (parsed from the cells it has,
 *   marked refused) so that the order or kit it belongs to is refused whole rather than applied without it;
 * - the lines of one group are never split across chunks, up to MAX_GROUP_LINES; the lines of a group
 *   that goes on beyond that are refused in the next chunk (the group was too long for its kind anyway).
 */
export async function* lineChunks<Plan, Row>(
  records: AsyncIterable<CsvRecord>,
  kind: ImportKind<Plan, Row>,
  plan: Plan,
  headerLength: number,
  skip: number,
): AsyncGenerator<LineChunk<Row>> {
  let seen = 0;
  let chunk: LineChunk<Row> = { lines: 0, parsed: [], errors: [] };
  let groupOf: string | null = null;
  let cutGroup: string | null = null;
  for await (const record of records) {
    seen++;
    if (seen <= skip) continue;
    const parsed = parseRecord(kind, plan, record, headerLength);
    const key = 'row' in parsed && kind.groupKey ? kind.groupKey(parsed.row) : null;
    const continuesGroup = key !== null && key === groupOf;
    if (chunk.lines >= IMPORT_CHUNK_LINES && !(continuesGroup && chunk.lines < IMPORT_CHUNK_LINES + MAX_GROUP_LINES)) {
      cutGroup = continuesGroup ? key : null;
      await nextTurn();
      yield chunk;
      chunk = { lines: 0, parsed: [], errors: [] };
    }
    if (key === null || key !== groupOf) cutGroup = null;
    groupOf = key;
    chunk.lines++;
    if (cutGroup !== null && key === cutGroup) {
      chunk.errors.push({ line: record.line, column: '', message: `the lines of "${key}" go on past ${MAX_GROUP_LINES.toLocaleString('en-US')} lines; it was refused, and so are its remaining lines` });
    } else if ('row' in parsed) chunk.parsed.push({ line: record.line, row: parsed.row });
    else chunk.errors.push(...parsed.errors);
  }
  if (chunk.lines > 0) yield chunk;
}

/**
 * Gives the event loop a turn between chunks. On SQLite every statement completes synchronously, so a whole
 * file could otherwise run as one unbroken chain of microtasks and starve the HTTP server of the same
 * process (the inline worker), and with it any cancel request, until the file ends.
 */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function parseRecord<Plan, Row>(kind: ImportKind<Plan, Row>, plan: Plan, record: CsvRecord, headerLength: number): { row: Row } | { errors: LineError[] } {
  const ragged = checkRaggedRow(record, headerLength);
  if (!ragged) return kind.parseLine(plan, record.cells, record.line);
  if (!kind.groupKey || !kind.refuseRow) return { errors: [ragged] };
  const cells = Array.from({ length: headerLength }, (_, i) => record.cells[i] ?? '');
  const parsed = kind.parseLine(plan, cells, record.line);
  return 'row' in parsed ? { row: kind.refuseRow(parsed.row, [ragged]) } : { errors: [ragged] };
}
