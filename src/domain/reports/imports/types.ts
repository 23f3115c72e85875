import type { Db } from '../../../db/tx.js';
import type { ImportType } from '../model.js';

/** One problem of one line (resolutions §8: served as `line,column,message`). */
export interface LineError {
  /** File line the record starts on (the header is line 1). */
  line: number;
  /** The file header the problem is in, or "" for the whole line. */
  column: string;
  message: string;
}

/** What an import or a validation runs with. */
export interface ImportContext {
  accountId: number;
  overwriteWithBlank: boolean;
  createNewProducts: boolean;
  insertOnly: boolean;
  templateId: number | null;
  integrationId: number | null;
  now: Date;
}

export interface ParsedLine<Row> {
  line: number;
  row: Row;
}

export type PrepareResult<Plan> =
  | {
      ok: true;
      plan: Plan;
      /** Per supplied header, in file order: the field or attribute it was read as, or null when ignored. */
      actualHeaders: (string | null)[];
      /** Notes on the header that do not stop the import (an ignored read-only column…), as line-1 errors. */
      notes: LineError[];
    }
  | { ok: false; error: string };

/**
 * One import type. The same three functions serve the import (processChunk with apply = true, inside the
 * chunk's transaction) and import validation (apply = false, reading only), so the two can never disagree
 * about a line.
 */
export interface ImportKind<Plan = unknown, Row = unknown> {
  type: ImportType;
  /** Maps the header to the type's columns and reads once what every line needs (template, store…). */
  prepare(db: Db, ctx: ImportContext, header: string[]): Promise<PrepareResult<Plan>>;
  /** Checks one line on its own (no database): the typed row, or its errors. */
  parseLine(plan: Plan, cells: string[], line: number): { row: Row } | { errors: LineError[] };
  /**
   * Lines with the same key belong together (the lines of one order) and are never split across chunks.
   * Undefined: every line stands alone.
   */
  groupKey?(row: Row): string;
  /**
   * Grouped types: the row with errors found before the kind saw it (a ragged line), so its group is
   * refused whole and the line reports them.
   */
  refuseRow?(row: Row, errors: LineError[]): Row;
  /**
   * Checks the lines against the account's data and, when `apply`, writes them with `db` (then the chunk's
   * transaction). Returns the errors of the lines refused; every other line applied (or, for validation,
   * would apply). A refused line must change nothing: check before writing, or write inside a savepoint.
   * On PostgreSQL a failed statement aborts the transaction, so never issue one expected to fail.
   */
  processChunk(db: Db, ctx: ImportContext, plan: Plan, lines: ParsedLine<Row>[], apply: boolean): Promise<LineError[]>;
}
