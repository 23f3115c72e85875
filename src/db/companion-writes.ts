import { CompiledQuery } from 'kysely';
import { isPostgres } from './dialect.js';
import { registeredStatementName, registerNamedStatement } from './pg-statement-names.js';
import type { Db } from './tx.js';
import { sendWithoutWaiting } from './unanswered.js';

/** Combined statements named at most (a process's distinct combinations of the shapes it runs). */
const MAX_COMBINED_NAMES = 200;
const combinedNames = new Set<string>();

/**
 * Runs `main` together with `companions`: writes whose results nobody reads (a search index, a ledger, a
 * rollup) that belong to the same change. On PostgreSQL they go as data-modifying CTEs of `main`, one
 * statement and one round trip instead of 1 + n; on SQLite, where a statement costs no round trip, the
 * companions run first and `main` after, one by one. Either way it is `main`'s rows that come back.
 *
 * What a companion may be: an INSERT, UPDATE or DELETE (with or without RETURNING, which is ignored) on a
 * table no other part of the call writes. PostgreSQL runs a statement's CTEs on one snapshot, so two parts
 * writing the same row would not see each other; on their own tables the outcome is the one of running them
 * in turn. Both databases run them in the caller's transaction: a failure of any part fails the call.
 */
export async function runWithCompanions<R>(db: Db, main: CompiledQuery<R>, companions: readonly CompiledQuery[]): Promise<R[]> {
  if (companions.length === 0 || !isPostgres(db)) {
    await runEach(db, companions);
    return (await db.executeQuery(main)).rows;
  }
  return (await db.executeQuery(combinedWithCompanions(main, companions))).rows;
}

/**
 * runWithCompanions for a main statement whose rows nobody reads either: on PostgreSQL the combined statement
 * is sent without waiting for its answer (src/db/unanswered.ts), so it rides with the caller's next statement.
 */
export async function writeWithCompanions(db: Db, main: CompiledQuery, companions: readonly CompiledQuery[]): Promise<void> {
  if (!isPostgres(db)) {
    await runEach(db, [...companions, main]);
    return;
  }
  await sendWithoutWaiting(db, companions.length === 0 ? main : combinedWithCompanions(main, companions));
}

/** One PostgreSQL statement: the companions as data-modifying CTEs of `main`. */
function combinedWithCompanions<R>(main: CompiledQuery<R>, companions: readonly CompiledQuery[]): CompiledQuery<R> {
  const parameters: unknown[] = [];
  const parts = companions.map((companion, i) => {
    const text = shiftPlaceholders(companion.sql, parameters.length);
    parameters.push(...companion.parameters);
    return `"companion_${i}" as (${text})`;
  });
  const mainText = shiftPlaceholders(main.sql, parameters.length);
  // A main statement with CTEs of its own (an UPDATE … FROM (VALUES …)) has them joined to the companions'.
  const ownWith = /^with\s+(?!recursive\b)/i.exec(mainText);
  const text = ownWith ? `with ${parts.join(', ')}, ${mainText.slice(ownWith[0].length)}` : `with ${parts.join(', ')} ${mainText}`;
  parameters.push(...main.parameters);
  // Made of named statements (fixed shapes), the combination recurs too: it is named in turn, so PostgreSQL
  // does not parse the whole of it on every run (unnamed, it cost more than the round trips it saves). Up to
  // a bound: each name is a plan kept on every connection.
  if (combinedNames.size < MAX_COMBINED_NAMES && [...companions, main].every((q) => registeredStatementName(q.sql) !== undefined)) {
    combinedNames.add(text);
    registerNamedStatement(text);
  }
  return CompiledQuery.raw(text, parameters) as CompiledQuery<R>;
}

/** Runs the statements one after another: a group of writes built to go with another (or alone). */
export async function runEach(db: Db, queries: readonly CompiledQuery[]): Promise<void> {
  for (const query of queries) await db.executeQuery(query);
}

/**
 * PostgreSQL's `$n` placeholders of a statement renumbered from `offset + 1`, outside string literals and
 * quoted identifiers (Kysely puts every value in a parameter, so a `$` elsewhere is a placeholder).
 */
export function shiftPlaceholders(text: string, offset: number): string {
  if (offset === 0) return text;
  let out = '';
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== null) {
      out += c;
      // A doubled quote inside a quoted run is an escaped quote: the run goes on.
      if (c === quote) {
        if (text[i + 1] === quote) out += text[++i];
        else quote = null;
      }
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      out += c;
      continue;
    }
    if (c === '$' && /[0-9]/.test(text[i + 1] ?? '')) {
      let j = i + 1;
      while (j < text.length && /[0-9]/.test(text[j]!)) j++;
      out += `$${Number(text.slice(i + 1, j)) + offset}`;
      i = j - 1;
      continue;
    }
    out += c;
  }
  return out;
}
