import { CompiledQuery } from 'kysely';
import pg from 'pg';
import { registeredStatementName } from './pg-statement-names.js';
import { rowFactory } from './row-factory.js';

/**
 * The pool's PostgreSQL client. Each statement PostgreSQL answers is a round trip, and a transaction holds its
 * connection for all of them, so the write paths' pace is set by how many of them wait for an answer. This
 * client runs in node-postgres's pipeline mode (a statement is written at once, behind any still unanswered)
 * and does not wait for the answer of:
 * - the transaction's BEGIN: it goes out with the transaction's first statement;
 * - a statement sent with sendWithoutWaiting (src/db/unanswered.ts): a write whose answer nobody reads;
 * - a read sent with readAhead (the same file): its answer is taken later, after statements sent behind it.
 * The next statement that is waited for (at the latest the COMMIT) is answered after them, in order, so
 * nothing is reordered and locks are taken exactly as before. If one of them failed, the statement that
 * waits fails with that error (not with "current transaction is aborted"), so a deadlock or a unique
 * violation reaches the transaction's retry or the route's error mapping as it would have; a COMMIT after
 * such a failure (which PostgreSQL answers with ROLLBACK, not an error) fails the same way.
 *
 * It also sends a text registered in src/db/pg-statement-names.ts under its name, so this connection parses it
 * once: Kysely sends every statement as query(text, values) and has no way to name one itself.
 */

/** Marks a statement whose answer is not waited for; the client strips it before sending (src/db/unanswered.ts). */
export const NOT_WAITED_FOR = '/*not waited for*/';

/**
 * Marks a read sent ahead (readAhead, src/db/unanswered.ts): not waited for either, but its answer is kept under
 * the number in the mark (readAheadMark), for the caller to take with takeAnswerAhead.
 */
const READ_AHEAD = '/*ahead:';
export const readAheadMark = (ticket: number) => `${READ_AHEAD}${ticket}*/`;
const answersAhead = new Map<number, () => Promise<pg.QueryResult>>();

/**
 * Marks a wide read whose rows are built from arrays (src/db/raw-rows.ts selectRows): node-postgres sets a row
 * object's properties one by one; the rows come as arrays instead and one object literal per statement
 * builds them (src/db/row-factory.ts).
 */
export const ROWS_AS_ARRAYS = '/*rows as arrays*/';
const ROW_FACTORIES = 200;
const rowFactories = new Map<string, ((values: readonly unknown[]) => unknown) | null>();

function rowsAsObjects(sql: string, result: pg.QueryResult): pg.QueryResult {
  let toRow = rowFactories.get(sql);
  if (toRow === undefined) {
    toRow = rowFactory(result.fields.map((f) => f.name));
    rowFactories.set(sql, toRow);
    if (rowFactories.size > ROW_FACTORIES) rowFactories.delete(rowFactories.keys().next().value as string);
  }
  const build = toRow;
  if (build === null) {
    // A column named __proto__ (none today): plain objects, the property set one by one.
    result.rows = result.rows.map((values: unknown[]) => Object.fromEntries(result.fields.map((f, i) => [f.name, values[i]])));
  } else result.rows = result.rows.map((values: unknown[]) => build(values));
  return result;
}

/**
 * The answer of the read sent ahead under `ticket` (once; undefined when none was sent under it), as a function
 * to call when the caller needs it: if it has not arrived by then, what the connection holds back is written at
 * once and that wait is a round trip of its own.
 */
export function takeAnswerAhead(ticket: number): (() => Promise<pg.QueryResult>) | undefined {
  const answer = answersAhead.get(ticket);
  answersAhead.delete(ticket);
  return answer;
}

// What Kysely reads of an answer it was not given (a BEGIN, a statement sent without waiting).
const NO_ANSWER: Pick<pg.QueryResult, 'command' | 'rowCount' | 'rows' | 'fields'> = { command: '', rowCount: 0, rows: [], fields: [] };

/** `query` with marks put before its text, in the order marksOf reads them; its parameters unchanged. */
export function withMarks<R>(query: CompiledQuery<R>, ...marks: string[]): CompiledQuery<R> {
  return CompiledQuery.raw(`${marks.join('')}${query.sql}`, [...query.parameters]) as CompiledQuery<R>;
}

/**
 * What the marks on a statement's text ask for, and the statement as PostgreSQL gets it. The marks, in this
 * order when combined: readAheadMark, ROWS_AS_ARRAYS, NOT_WAITED_FOR. (bench/explain.ts reads the statements
 * the same way.)
 */
export function marksOf(text: string): { sql: string; ticket: number | null; arrays: boolean; notWaitedFor: boolean } {
  let sql = text;
  const ahead = sql.startsWith(READ_AHEAD) ? /^\/\*ahead:(\d+)\*\//.exec(sql) : null;
  if (ahead) sql = sql.slice(ahead[0].length);
  const arrays = sql.startsWith(ROWS_AS_ARRAYS);
  if (arrays) sql = sql.slice(ROWS_AS_ARRAYS.length);
  const notWaitedFor = sql.startsWith(NOT_WAITED_FOR);
  if (notWaitedFor) sql = sql.slice(NOT_WAITED_FOR.length);
  return { sql, ticket: ahead ? Number(ahead[1]) : null, arrays, notWaitedFor };
}

const opensTransaction = (sql: string) => /^\s*(begin|start transaction)\b/i.test(sql);
const rollsBack = (sql: string) => /^\s*rollback\s*$/i.test(sql);

/**
 * Called once per statement that waits for its answer, and per answer of a read sent ahead that the caller
 * waits for: a round trip (test/helpers/statement-counter.ts).
 */
const roundTripObservers = new Set<() => void>();
export function observeRoundTrips(observer: () => void): () => void {
  roundTripObservers.add(observer);
  return () => roundTripObservers.delete(observer);
}

/**
 * The pool's client with the fast paths off (ConnectOptions.speedUps false): every statement is sent on its own
 * and waited for, unnamed, its rows as objects. The service's marks are read and dropped, so readAhead,
 * sendWithoutWaiting and the wide reads work unchanged: an answer sent ahead is simply there when taken.
 */
export function plainClientClass(connectTimeoutMs: number): typeof pg.Client {
  return class PlainClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super({ ...(typeof config === 'string' ? { connectionString: config } : config), connectionTimeoutMillis: connectTimeoutMs });
    }

    override query(...args: unknown[]): never {
      for (const observer of roundTripObservers) observer();
      const [text, values] = args;
      const send = (a: unknown[]) => (super.query as (...a: unknown[]) => unknown)(...a);
      if (args.length !== 2 || typeof text !== 'string' || !Array.isArray(values)) return send(args) as never;
      const { sql, ticket } = marksOf(text);
      const sent = send([sql, values]) as Promise<pg.QueryResult>;
      if (ticket !== null) {
        // Not unhandled if the caller never takes it; taking it still rejects.
        sent.catch(() => undefined);
        answersAhead.set(ticket, () => sent);
      }
      return sent as never;
    }
  };
}

export function pipelinedClientClass(connectTimeoutMs: number): typeof pg.Client {
  return class PipelinedClient extends pg.Client {
    /** Statements sent and not waited for, settled once answered (a failure is kept in #failure). */
    #unanswered: Promise<void>[] = [];
    #failure: { error: unknown } | null = null;
    /** Whether this client corked its socket: statements not waited for are written together with the next one. */
    #corked = false;
    /** Counts corkings, so a fallback uncork scheduled for an earlier one leaves a later one alone. */
    #corkings = 0;

    constructor(config?: string | pg.ClientConfig) {
      // pipeline: a node-postgres ClientConfig option (8.21+) missing from @types/pg.
      super({ ...(typeof config === 'string' ? { connectionString: config } : config), connectionTimeoutMillis: connectTimeoutMs, pipeline: true } as pg.ClientConfig);
    }

    override query(...args: unknown[]): never {
      const [text, values] = args;
      // Callbacks, config objects and submittables (pg-pool's own checks, prepared.ts's named reads) go as given.
      if (args.length !== 2 || typeof text !== 'string' || !Array.isArray(values)) {
        for (const observer of roundTripObservers) observer();
        const sent = this.#send(args);
        this.#uncork();
        return sent as never;
      }
      const { sql, ticket, arrays, notWaitedFor } = marksOf(text);
      const notWaited = ticket !== null || notWaitedFor;
      const name = registeredStatementName(sql);
      const unanswered = notWaited || opensTransaction(sql);
      // One socket write for a run of statements instead of one each (a write costs more than its bytes).
      if (unanswered) this.#cork();
      const config = { ...(name === undefined ? {} : { name }), text: sql, values, ...(arrays ? { rowMode: 'array' } : {}) };
      const bare = this.#send([config]) as Promise<pg.QueryResult>;
      const sent = arrays ? bare.then((result) => rowsAsObjects(sql, result)) : bare;
      if (!unanswered) this.#uncork();
      if (ticket !== null) answersAhead.set(ticket, this.#answerWhenNeeded(sent));
      if (unanswered) {
        this.#unanswered.push(
          sent.then(
            () => undefined,
            (error: unknown) => {
              this.#failure ??= { error };
            },
          ),
        );
        return Promise.resolve(NO_ANSWER) as never;
      }
      for (const observer of roundTripObservers) observer();
      if (this.#unanswered.length === 0 && this.#failure === null) return sent as never;
      return this.#afterUnanswered(sent, rollsBack(sql)) as never;
    }

    /**
     * takeAnswerAhead's function for a read sent ahead: waiting for it uncorks, and counts as a round trip. A
     * read that failed answers the transaction's first failure, as a waited statement would: after a deadlock
     * in an earlier statement this read's own error is only "current transaction is aborted", which no retry
     * recognises. (Answers come in order, so by the time this one has, any earlier failure is recorded.)
     */
    #answerWhenNeeded(sent: Promise<pg.QueryResult>): () => Promise<pg.QueryResult> {
      let arrived = false;
      const settle = () => {
        arrived = true;
      };
      sent.then(settle, settle);
      return () => {
        if (!arrived) {
          this.#uncork();
          for (const observer of roundTripObservers) observer();
        }
        return sent.catch((error: unknown) => {
          throw this.#failure?.error ?? error;
        });
      };
    }

    /** The answer of a waited statement sent behind unanswered ones, or the first failure among them. */
    async #afterUnanswered(sent: Promise<pg.QueryResult>, rollback: boolean): Promise<pg.QueryResult> {
      const unanswered = this.#unanswered;
      this.#unanswered = [];
      const outcome = await sent.then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      // Answered in the order sent, so these are settled already.
      await Promise.all(unanswered);
      const failure = this.#failure;
      this.#failure = null;
      // A ROLLBACK ends the transaction whatever failed in it; the failure was or will be reported by the caller.
      if (failure !== null && !rollback) throw failure.error;
      if ('error' in outcome) throw outcome.error;
      return outcome.result;
    }

    #stream(): { cork(): void; uncork(): void } {
      // pg's Client keeps its Connection (and its socket) off the public typings.
      return (this as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
    }

    #cork(): void {
      if (this.#corked) return;
      this.#corked = true;
      const corking = ++this.#corkings;
      this.#stream().cork();
      // A waited statement normally follows at once and uncorks; should none come, nothing is held past this turn.
      setImmediate(() => {
        if (this.#corkings === corking) this.#uncork();
      });
    }

    /** Writes what was held, the statement that waits included. */
    #uncork(): void {
      if (!this.#corked) return;
      this.#corked = false;
      this.#stream().uncork();
    }

    #send(args: unknown[]): unknown {
      // pg's overloads cannot be forwarded one by one; the arguments are its own, passed through.
      return (super.query as (...a: unknown[]) => unknown)(...args);
    }
  };
}
