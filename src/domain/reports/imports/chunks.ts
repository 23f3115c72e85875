import type { Dialect } from '../../../db/connect.js';
import { nextTurn } from '../../../lib/next-turn.js';
import type { CsvRecord } from '../csv/read-records.js';
import { checkRaggedRow } from './file-checks.js';
import type { ImportKind, LineError, ParsedLine } from './types.js';

/** The most data lines one chunk (one transaction, one checkpoint) takes; PostgreSQL's chunk size. */
export const IMPORT_CHUNK_LINES = 500;
/** The fewest, below which a chunk's own statements (checkpoint, counters) would cost more than its lines. */
export const MIN_CHUNK_LINES = 20;
/** The first chunk of a run on SQLite, before any chunk was timed. */
export const FIRST_CHUNK_LINES = 100;
/** What one chunk's transaction should take on SQLite: short enough that the API beside it barely waits. */
export const CHUNK_TARGET_MS = 15;
/**
 * A group of lines that must stay together (one order, one kit) may grow a chunk by at most this many
 * lines. It is larger than any group a kind accepts (an order has at most 500 lines, a kit 50
 * components), so a group cut here was already refused whole by its kind in the chunk it began in.
 */
export const MAX_GROUP_LINES = 1000;

/**
 * How many lines the next chunk takes. On SQLite every statement runs on the event loop and a transaction
 * holds the one writer, so a chunk's transaction is time during which the API of the same process answers
 * nothing and writes nowhere: the size follows the time the chunks take, aiming at CHUNK_TARGET_MS (500-line
 * chunks took 40–350 ms on a busy two-core machine). It shrinks at once after a slow chunk and at most doubles after a fast
 * one (a single fast chunk may be luck). On PostgreSQL the event loop is free while a statement runs (a network
 * round trip) and a chunk locks only its rows, so chunks stay at IMPORT_CHUNK_LINES: smaller ones would only
 * add round trips. Exactly-once does not depend on the size: each chunk's checkpoint counts its own lines.
 */
export class ChunkPacer {
  private size: number;

  constructor(private readonly adaptive: boolean) {
    this.size = adaptive ? FIRST_CHUNK_LINES : IMPORT_CHUNK_LINES;
  }

  /** The lines the next chunk takes (a group may add up to MAX_GROUP_LINES). */
  get lines(): number {
    return this.size;
  }

  /** A chunk of `lines` lines took `ms` to commit: sizes the next one. */
  took(lines: number, ms: number): void {
    if (!this.adaptive || lines === 0) return;
    const fit = (CHUNK_TARGET_MS * lines) / Math.max(ms, 0.1);
    this.size = Math.round(Math.min(IMPORT_CHUNK_LINES, this.size * 2, Math.max(MIN_CHUNK_LINES, fit)));
  }
}

/** The pacer of one run of an import or a validation on this database. */
export function chunkPacer(dialect: Dialect): ChunkPacer {
  return new ChunkPacer(dialect === 'sqlite');
}

/** The data lines of one chunk: how many, the lines the kind reads, and the lines refused before it. */
export interface LineChunk<Row> {
  lines: number;
  parsed: ParsedLine<Row>[];
  errors: LineError[];
}

/**
 * Cuts a file's data records (header excluded) into chunks of `pacer.lines` lines, skipping the first
 * `skip` (the checkpoint of a resumed run). The one place where lines become chunks, for the import and for
 * validation alike, so the two read every line the same way:
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
  pacer: ChunkPacer = new ChunkPacer(false),
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
    if (chunk.lines >= pacer.lines && !(continuesGroup && chunk.lines < pacer.lines + MAX_GROUP_LINES)) {
      cutGroup = continuesGroup ? key : null;
      // Between chunks the event loop gets a turn: on SQLite a whole file could otherwise run as one chain
      // of microtasks and starve the HTTP server of the same process (the inline worker), cancels included.
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

function parseRecord<Plan, Row>(kind: ImportKind<Plan, Row>, plan: Plan, record: CsvRecord, headerLength: number): { row: Row } | { errors: LineError[] } {
  const ragged = checkRaggedRow(record, headerLength);
  if (!ragged) return kind.parseLine(plan, record.cells, record.line);
  if (!kind.groupKey || !kind.refuseRow) return { errors: [ragged] };
  const cells = Array.from({ length: headerLength }, (_, i) => record.cells[i] ?? '');
  const parsed = kind.parseLine(plan, cells, record.line);
  return 'row' in parsed ? { row: kind.refuseRow(parsed.row, [ragged]) } : { errors: [ragged] };
}
