import { createHash } from 'node:crypto';

/**
 * Which SQL texts run as named prepared statements on PostgreSQL. PostgreSQL parses, analyses and plans an
 * unnamed statement on every run; a named one is parsed once per connection, and its bind-and-execute
 * messages are smaller too. The hot write paths' statements (src/db/compiled.ts: a fixed text per shape, a
 * bounded number of shapes) are registered here when compiled for PostgreSQL, and the pool's client class
 * (src/db/connect.ts) sends a registered text under its name whoever runs it: a transaction through Kysely
 * included, which has no way to name a statement itself.
 *
 * The names follow prepareQuery's (src/db/prepared.ts): one text, one name, on every connection and in every
 * process. Behind PgBouncer in transaction mode this needs 1.21 or later with max_prepared_statements
 * (docs/operators/scaling.md), as the hot reads already did.
 */
const names = new Map<string, string>();

/** The name a statement of this text is prepared under. */
export function statementNameOf(sql: string): string {
  return `q_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
}

/** Marks a text to run as a named prepared statement from now on. Call it once per text, not per run. */
export function registerNamedStatement(sql: string): void {
  if (!names.has(sql)) names.set(sql, statementNameOf(sql));
}

/** The registered name of this text, or undefined: an ad-hoc statement, run unnamed. */
export function registeredStatementName(sql: string): string | undefined {
  return names.get(sql);
}
