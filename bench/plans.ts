/**
 * Query plans for the benchmarks: EXPLAIN QUERY PLAN on SQLite, EXPLAIN (ANALYZE, BUFFERS) on PostgreSQL, and
 * a check for full scans of large tables. bench/explain.ts and the orders benchmark's missed-target note use it.
 */
import { CompiledQuery } from 'kysely';
import type { Dialect } from '../src/db/connect.js';
import type { Db } from '../src/db/tx.js';

/** The SQL with its parameters inlined as literals, for reading only (SQLite "?" or PostgreSQL "$n"). */
export function inlineParameters(text: string, parameters: readonly unknown[]): string {
  const literal = (value: unknown) =>
    value === null || value === undefined
      ? 'null'
      : typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean'
        ? String(value)
        : `'${(typeof value === 'string' ? value : JSON.stringify(value)).replace(/'/g, "''")}'`;
  if (/\$\d+/.test(text)) return text.replace(/\$(\d+)/g, (whole, n: string) => (Number(n) <= parameters.length ? literal(parameters[Number(n) - 1]) : whole));
  let i = 0;
  return text.replace(/\?/g, (whole) => (i < parameters.length ? literal(parameters[i++]) : whole));
}

export interface Plan {
  /** The statement with its parameters inlined (for reading). */
  sql: string;
  /** The plan's lines as the database prints them. */
  lines: string[];
}

/**
 * The plan of one statement run with its real parameters: EXPLAIN QUERY PLAN on SQLite; EXPLAIN (ANALYZE,
 * BUFFERS) on PostgreSQL, which runs the statement (only give it reads).
 */
export async function explainStatement(db: Db, dialect: Dialect, text: string, parameters: readonly unknown[]): Promise<Plan> {
  const prefix = dialect === 'postgres' ? 'explain (analyze, buffers) ' : 'explain query plan ';
  const result = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`${prefix}${text}`, [...parameters]));
  const lines =
    dialect === 'postgres'
      ? result.rows.map((r) => String(r['QUERY PLAN']))
      : result.rows.map((r) => `${'  '.repeat(depthOf(result.rows, r))}${String(r.detail)}`);
  return { sql: inlineParameters(text, parameters), lines };
}

/** SQLite's plan rows form a tree by id/parent: the depth of a row, for indentation. */
function depthOf(rows: Record<string, unknown>[], row: Record<string, unknown>): number {
  let depth = 0;
  let parent = Number(row.parent);
  while (parent !== 0 && depth < 20) {
    const up = rows.find((r) => Number(r.id) === parent);
    if (!up) break;
    depth++;
    parent = Number(up.parent);
  }
  return depth;
}

/**
 * The tables a plan reads in full: PostgreSQL "Seq Scan on <table>"; SQLite "SCAN <table>" (with or without
 * an index: "SCAN t USING INDEX i" walks the whole index, which is as bad on a large table unless a LIMIT
 * stops it early; the line says which).
 */
export function fullScans(plan: Plan): { table: string; line: string }[] {
  const out: { table: string; line: string }[] = [];
  for (const line of plan.lines) {
    const pg = /Seq Scan on (\S+)/.exec(line);
    if (pg) out.push({ table: pg[1]!, line: line.trim().replace(/^->\s*/, '') });
    const lite = /^\s*SCAN (\S+)/.exec(line);
    if (lite) out.push({ table: lite[1]!, line: line.trim() });
  }
  return out;
}
