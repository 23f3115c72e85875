import type { CompiledQuery, Compilable } from 'kysely';
import { isPostgres } from './dialect.js';
import { registerNamedStatement } from './pg-statement-names.js';
import type { Db } from './tx.js';

/**
 * Queries on hot write paths run inside transactions, where src/db/prepared.ts cannot take its synchronous
 * shortcut. Building and compiling a Kysely query costs several times what SQLite needs to run it, so these
 * are built once per dialect with named arguments (compileWithArgs) and each run only binds the arguments
 * and hands the compiled query to whatever `db` is, a transaction included. The SQLite connection then
 * reuses its prepared statement by SQL text (src/db/statement-cache.ts).
 */
const ARG_PREFIX = '\u0000arg:';

/** A named argument: a placeholder typed as the column it stands for. */
export type ArgFn = <T = string>(name: string) => T;

export interface ArgQuery<R, A> {
  compiled: CompiledQuery<R>;
  bind(args: A): unknown[];
}

/** Compiles a query whose arguments are named placeholders; bind() puts the values in their slots. */
export function compileWithArgs<R, A extends Record<string, unknown>>(build: (arg: ArgFn) => Compilable<R>): ArgQuery<R, A> {
  // The placeholder is a marker string whatever T claims; bind() swaps it for the argument.
  const compiled = build(<T,>(name: string) => `${ARG_PREFIX}${name}` as unknown as T).compile();
  const slots = compiled.parameters.map((p) => (typeof p === 'string' && p.startsWith(ARG_PREFIX) ? { arg: p.slice(ARG_PREFIX.length), value: null } : { arg: null, value: p }));
  for (const s of slots) if (s.arg !== null && s.arg.length === 0) throw new Error('compileWithArgs: an argument needs a name');
  const bind = (args: A) =>
    slots.map((s) => {
      if (s.arg === null) return s.value;
      const value = args[s.arg];
      // A missing argument is a programming error; binding undefined would store or match nothing quietly.
      if (value === undefined) throw new Error(`compiled query: no value for argument ${s.arg}`);
      return value;
    });
  return { compiled, bind };
}

export interface CompiledStatement<R, A> {
  all(db: Db, args: A): Promise<R[]>;
  first(db: Db, args: A): Promise<R | undefined>;
  /** The compiled query with `args` bound, to run some other way (src/db/companion-writes.ts). */
  bound(db: Db, args: A): CompiledQuery<R>;
}

/**
 * A query built once per dialect (the first `db` of that dialect compiles it) and run on any `db` of it.
 * Only for fixed shapes: an IN list of varying length is a different statement each time.
 */
export function compiledStatement<R, A extends Record<string, unknown>>(build: (db: Db, arg: ArgFn) => Compilable<R>): CompiledStatement<R, A> {
  // One shape only: the per-dialect cache of compiledByShape.
  const family = compiledByShape<R, A, ''>((db, arg) => build(db, arg));
  const all = (db: Db, args: A) => family.all(db, '', args);
  return { all, first: async (db, args) => (await all(db, args))[0], bound: (db, args) => family.bound(db, '', args) };
}

/**
 * A family of statements that differ in shape: how many rows or list entries they carry (a multi-row
 * INSERT, an IN list), or which optional clauses they have. Each shape is compiled once per dialect; a
 * numeric shape above `maxCachedSize` is built per call instead of kept (sizes are unbounded, the clause
 * combinations of a string shape are few).
 */
export function compiledByShape<R, A extends Record<string, unknown>, K extends string | number>(
  build: (db: Db, arg: ArgFn, shape: K) => Compilable<R>,
  maxCachedSize = 32,
): {
  all(db: Db, shape: K, args: A): Promise<R[]>;
  /** The compiled query with `args` bound, to run some other way (src/db/raw-rows.ts selectRows). */
  bound(db: Db, shape: K, args: A): CompiledQuery<R>;
} {
  // Keyed by the dialect's adapter class: SQLite and PostgreSQL compile to different SQL.
  const byDialect = new Map<unknown, Map<K, ArgQuery<R, A>>>();
  const bound = (db: Db, shape: K, args: A): CompiledQuery<R> => {
    const dialect = db.getExecutor().adapter.constructor;
    let shapes = byDialect.get(dialect);
    if (!shapes) byDialect.set(dialect, (shapes = new Map()));
    let query = shapes.get(shape);
    if (!query) {
      query = compileWithArgs<R, A>((arg) => build(db, arg, shape));
      if (typeof shape === 'string' || (shape as number) <= maxCachedSize) {
        shapes.set(shape, query);
        // Kept shapes are few and run often: on PostgreSQL they become named prepared statements.
        if (isPostgres(db)) registerNamedStatement(query.compiled.sql);
      }
    }
    return { ...query.compiled, parameters: query.bind(args) };
  };
  return {
    bound,
    async all(db, shape, args) {
      return (await db.executeQuery<R>(bound(db, shape, args))).rows;
    },
  };
}

/**
 * compiledByShape by size: one statement for n rows instead of n statements matters most on PostgreSQL,
 * where each is a round trip.
 */
export function compiledBySize<R, A extends Record<string, unknown>>(build: (db: Db, arg: ArgFn, size: number) => Compilable<R>, maxCachedSize = 32) {
  return compiledByShape<R, A, number>(build, maxCachedSize);
}

/** Row `index` of a multi-row statement, every column a named argument `<index>.<column>` (see rowArgsOf). */
export function argRow<T>(arg: ArgFn, index: number, columns: readonly (keyof T & string)[]): T {
  // Placeholders stand for the columns' values, whatever their types (as ArgFn's do).
  return Object.fromEntries(columns.map((c) => [c, arg(`${index}.${c}`)])) as T;
}

/** argRow's argument names by column list and row index, made once: building them per call cost more than the binding. */
const rowArgNames = new WeakMap<readonly string[], string[][]>();

function argNamesOfRow(columns: readonly string[], index: number): string[] {
  let byRow = rowArgNames.get(columns);
  if (!byRow) rowArgNames.set(columns, (byRow = []));
  return (byRow[index] ??= columns.map((c) => `${index}.${c}`));
}

/** The arguments of argRow placeholders for these rows. */
export function rowArgsOf<T extends object>(rows: readonly T[], columns: readonly (keyof T & string)[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const names = argNamesOfRow(columns, i);
    for (let c = 0; c < columns.length; c++) args[names[c]!] = row[columns[c]!];
  }
  return args;
}

/** Named arguments `<prefix><index>` for a list of n values (an IN list), and their bindings. */
export function argList<T>(arg: ArgFn, prefix: string, size: number): T[] {
  return Array.from({ length: size }, (_, i) => arg<T>(`${prefix}${i}`));
}
export function listArgsOf(prefix: string, values: readonly unknown[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  values.forEach((v, i) => (args[`${prefix}${i}`] = v));
  return args;
}

/**
 * The columns of an insert, checked to be all of them: argRow and rowArgsOf carry only the listed columns,
 * so a column added to the table but not to the list is a type error here rather than a silent default.
 */
export function everyColumn<T>() {
  return <const C extends readonly (keyof T & string)[]>(columns: C & ([Exclude<keyof T, C[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, C[number]> })): C =>
    columns;
}

/**
 * Runs a query built per call whose text is nonetheless the same every time (its lists go as array
 * parameters): on PostgreSQL it is named like the kept shapes above, so each connection parses it once.
 */
export async function runFixedText<R>(db: Db, query: CompiledQuery<R>): Promise<R[]> {
  return (await db.executeQuery(fixedText(db, query))).rows;
}

/** runFixedText's naming alone, for a query of fixed text sent some other way (readAhead, sendWithoutWaiting). */
export function fixedText<R>(db: Db, query: CompiledQuery<R>): CompiledQuery<R> {
  if (isPostgres(db)) registerNamedStatement(query.sql);
  return query;
}
