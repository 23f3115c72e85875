import type SQLite from 'better-sqlite3';
import {
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';
import { withStatementCache } from './statement-cache.js';

/**
 * The embedded database's Kysely dialect, with group commit.
 *
 * SQLite has one writer, so Kysely's own driver runs one transaction at a time on one connection and pays a
 * COMMIT for each. A COMMIT writes every page the transaction dirtied to the WAL, one write per page: for a
 * 2-line order ~30 pages, about a third of its time in the database. Under concurrent requests consecutive
 * transactions dirty mostly the same pages (the right-most leaves of each table and index), so here a
 * transaction that finishes while others wait for the connection does not commit alone:
 *
 * - every transaction (a *member*) runs inside a savepoint of a shared outer transaction (`BEGIN IMMEDIATE`);
 *   its COMMIT releases the savepoint, and, when another caller is waiting for the connection and the group
 *   is below its limits, hands the connection over and waits; the last member of the group COMMITs for all;
 * - a member's rollback undoes only its savepoint, so one request's failure never touches another's writes;
 * - no caller learns that its transaction committed before the shared COMMIT succeeded (a member's
 *   `commitTransaction` resolves only then); when the shared COMMIT fails, or SQLite rolls the whole outer
 *   transaction back, every waiting member fails, with an error withTx retries (nothing of theirs was kept),
 *   and for a while transactions commit one by one, so a retry that fails again fails alone;
 * - a statement outside a transaction never sees a member's uncommitted writes: a read-only one runs on the
 *   writer while no transaction is open on it, else on a separate read connection (an on-disk database:
 *   committed data only, and no wait behind transactions); anything else first commits the open group.
 *
 * A group closes after MAX_GROUP_MEMBERS members or MAX_GROUP_OPEN_MS, so a member waits at most for the
 * transactions that started within that window to finish.
 */

export const MAX_GROUP_MEMBERS = 16;
export const MAX_GROUP_OPEN_MS = 10;
/** After a shared COMMIT failed, how long transactions commit one by one (withTx's retries fall within it). */
const SOLO_AFTER_FAILURE_MS = 1000;

/** A member transaction's writes were undone because the shared transaction ended without committing them. */
export class GroupCommitAbortedError extends Error {
  readonly code = 'GROUP_COMMIT_ABORTED';
  constructor(override readonly cause: unknown) {
    super('the transaction was rolled back with the group it was committing in; it can run again');
  }
}

interface Deferred {
  resolve(): void;
  reject(error: unknown): void;
}

/** FIFO lock on the write connection; unlock hands it straight to the next waiter. */
class WriteLock {
  #held = false;
  readonly #queue: (() => void)[] = [];

  get waiting(): number {
    return this.#queue.length;
  }

  lock(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#queue.push(resolve));
  }

  unlock(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#held = false;
  }
}

/** What Kysely holds between acquireConnection and releaseConnection: one per caller. */
class Lease implements DatabaseConnection {
  /** Holds the write lock (taken on demand: a read outside a transaction never takes it). */
  locked = false;
  /** Inside a member transaction. */
  member = false;
  /** Gave the write lock to the next caller while its group commits; release must not unlock again. */
  handedOver = false;

  constructor(private readonly driver: GroupCommitDriver) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute<R>(this, compiled);
  }

  streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    return this.driver.stream<R>(this, compiled);
  }
}

export interface GroupCommitStats {
  /** Shared COMMITs that succeeded. */
  commits: number;
  /** Member transactions those COMMITs carried. */
  members: number;
}

export class GroupCommitDriver implements Driver {
  readonly #lock = new WriteLock();
  readonly #writer: SqliteDatabase;
  readonly #reader: SqliteDatabase | null;
  /** The open outer transaction's waiting members (null: no outer transaction open). */
  #group: { waiting: Deferred[]; openedAt: number; members: number } | null = null;
  #commitScheduled = false;
  /** Until then every transaction commits alone (after a failed shared COMMIT). */
  #soloUntil = 0;
  readonly stats: GroupCommitStats = { commits: 0, members: 0 };

  constructor(
    private readonly sqlite: SQLite.Database,
    reader: SQLite.Database | null,
  ) {
    this.#writer = withStatementCache(sqlite);
    this.#reader = reader ? withStatementCache(reader) : null;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    await this.#take(lease);
    if (!this.#group) {
      this.#run('begin immediate');
      this.#group = { waiting: [], openedAt: performance.now(), members: 0 };
    }
    this.#run('savepoint group_member');
    lease.member = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    const group = this.#group!;
    lease.member = false;
    this.#run('release savepoint group_member');
    group.members++;
    const now = performance.now();
    if (group.members >= MAX_GROUP_MEMBERS || now - group.openedAt >= MAX_GROUP_OPEN_MS || now < this.#soloUntil) {
      const failed = this.#commitGroup();
      if (failed) throw failed.error;
      return;
    }
    // Commit after the requests that are already readable have had their turn (their transactions join).
    const committed = new Promise<void>((resolve, reject) => group.waiting.push({ resolve, reject }));
    this.#scheduleCommit();
    lease.handedOver = true;
    this.#unlock();
    return committed;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    // Kysely also calls this when commitTransaction failed: the member is over by then.
    if (!lease.member) return;
    lease.member = false;
    if (this.sqlite.inTransaction) {
      this.#run('rollback to savepoint group_member');
      this.#run('release savepoint group_member');
    } else {
      // SQLite rolled the whole outer transaction back (an I/O error, a full disk): the waiting members'
      // writes went with it.
      this.#abortGroup(null);
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (lease.handedOver || !lease.locked) return;
    lease.locked = false;
    this.#unlock();
  }

  async destroy(): Promise<void> {
    if (this.#group) this.#commitGroup();
    this.#reader?.close();
    this.#writer.close();
  }

  async execute<R>(lease: Lease, compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (!lease.member) {
      const reads = this.#readConnection();
      if (reads) {
        const statement = reads.prepare(compiled.sql) as SQLite.Statement;
        if (statement.readonly) return { rows: statement.all(compiled.parameters) as R[] };
      }
      await this.#take(lease);
      // A statement outside a transaction commits on its own: the group's writes go first.
      if (this.#group) this.#commitGroup();
    }
    const statement = this.#writer.prepare(compiled.sql);
    if (statement.reader) return { rows: statement.all(compiled.parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(compiled.parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  /**
   * Where a read outside a transaction runs now, seeing committed data only: the writer while no transaction
   * is open on it (its page cache is warm; the reader's is dropped after every COMMIT), else the read
   * connection; null (in memory, a transaction open) when it must wait for the writer.
   */
  #readConnection(): SqliteDatabase | null {
    return this.sqlite.inTransaction ? this.#reader : this.#writer;
  }

  async *stream<R>(lease: Lease, compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query)) throw new Error('only select queries can be streamed on SQLite');
    // Read whole, then handed out row by row: an open iterator would make the connection refuse every other
    // statement until the consumer finished (nothing in the service streams from SQLite).
    const rows = (await this.execute<R>(lease, compiled)).rows;
    for (const row of rows) yield { rows: [row] };
  }

  async #take(lease: Lease): Promise<void> {
    if (lease.locked) return;
    await this.#lock.lock();
    lease.locked = true;
  }

  #unlock(): void {
    this.#lock.unlock();
  }

  /** One pending commit at a time: it runs once the event loop has handled the I/O that is ready now. */
  #scheduleCommit(): void {
    if (this.#commitScheduled) return;
    this.#commitScheduled = true;
    setImmediate(() => {
      this.#commitScheduled = false;
      // In turn with the callers already waiting (members among them still join the group).
      void this.#lock.lock().then(() => {
        if (this.#group) this.#commitGroup();
        this.#unlock();
      });
    });
  }

  #run(sql: string): void {
    this.#writer.prepare(sql).run([]);
  }

  /**
   * COMMITs the open group and settles its waiting members. Never throws (it also runs where a throw would
   * leave the write lock held); a failed COMMIT is returned for the member that ran it.
   */
  #commitGroup(): { error: unknown } | null {
    const group = this.#group!;
    this.#group = null;
    try {
      this.#run('commit');
    } catch (error) {
      try {
        if (this.sqlite.inTransaction) this.sqlite.exec('rollback');
      } catch {
        // The connection is unusable; the next statement reports it.
      }
      for (const member of group.waiting) member.reject(new GroupCommitAbortedError(error));
      // Which member broke the COMMIT is unknown: for a while each commits alone, so when withTx runs the
      // aborted ones again, only the one at fault fails (with its own error) and the others commit.
      this.#soloUntil = performance.now() + SOLO_AFTER_FAILURE_MS;
      return { error };
    }
    this.stats.commits++;
    this.stats.members += group.members;
    for (const member of group.waiting) member.resolve();
    return null;
  }

  #abortGroup(cause: unknown): void {
    const group = this.#group;
    this.#group = null;
    for (const member of group?.waiting ?? []) member.reject(new GroupCommitAbortedError(cause));
  }
}

/** SQLite through better-sqlite3 with group commit; `reader` is a second connection to the same file, or null (:memory:). */
export function groupCommitDialect(sqlite: SQLite.Database, reader: SQLite.Database | null): Dialect & { driver: GroupCommitDriver } {
  const driver = new GroupCommitDriver(sqlite, reader);
  return {
    driver,
    createDriver: () => driver,
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createAdapter: () => new SqliteAdapter(),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
  };
}
