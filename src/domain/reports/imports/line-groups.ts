import type { LineError, ParsedLine } from './types.js';

/**
 * Grouped import types (Kits, Orders): the lines of one kit or one order are consecutive and applied
 * together. The runner never splits such a run of lines across chunks; these helpers cut a chunk into its
 * runs and notice a key that comes back after another key, whose later lines must be refused.
 */

export interface LineGroup<Row> {
  key: string;
  lines: ParsedLine<Row>[];
}

/** The chunk's lines as runs of the same key, in file order. */
export function consecutiveGroups<Row>(lines: ParsedLine<Row>[], keyOf: (row: Row) => string): LineGroup<Row>[] {
  const groups: LineGroup<Row>[] = [];
  for (const line of lines) {
    const key = keyOf(line.row);
    const last = groups[groups.length - 1];
    if (last && last.key === key) last.lines.push(line);
    else groups.push({ key, lines: [line] });
  }
  return groups;
}

/**
 * Remembers the first line of every key met during one run of a file, across its chunks, so a kit or an
 * order that comes back later in the file is refused even in another chunk. It lives in the kind's plan,
 * which one run of the runner (or one validation) builds once: a run resumed after a crash starts with an
 * empty memory and then relies on what the database shows (an order already in the store). The number of
 * keys kept is capped so a huge file cannot hold the worker's memory.
 */
export class GroupMemory {
  private readonly firstLines = new Map<string, number>();

  constructor(private readonly capacity = 200_000) {}

  /**
   * The first line of `key` in the file: `firstLine` itself when the key is new (or this is the same run
   * of lines again, as when the chunk's transaction is retried), else the line where it began earlier.
   */
  firstLineOf(key: string, firstLine: number): number {
    const known = this.firstLines.get(key);
    if (known !== undefined) return known;
    if (this.firstLines.size < this.capacity) this.firstLines.set(key, firstLine);
    return firstLine;
  }
}

/**
 * The errors of a refused group: every line keeps its own errors, and a line with none gets `whole`, so
 * each line of the group is counted as refused and the seller sees why a good line was not applied.
 */
export function refuseGroup<Row>(group: LineGroup<Row>, own: Map<number, LineError[]>, column: string, whole: (firstBad: number) => string): LineError[] {
  const bad = group.lines.filter((l) => (own.get(l.line) ?? []).length > 0);
  const firstBad = bad[0]?.line ?? group.lines[0]!.line;
  const errors: LineError[] = [];
  for (const { line } of group.lines) {
    const mine = own.get(line) ?? [];
    if (mine.length > 0) errors.push(...mine);
    else errors.push({ line, column, message: whole(firstBad) });
  }
  return errors;
}

/** Adds an error to a line's list in `own`. */
export function addError(own: Map<number, LineError[]>, error: LineError): void {
  const list = own.get(error.line);
  if (list) list.push(error);
  else own.set(error.line, [error]);
}
