import { sql } from 'kysely';
import type { DbHandle } from '../../src/db/connect.js';

/** Kysely's own bookkeeping, made by its migrator; the service never queries them through the Database type. */
const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

export interface MigratedColumn {
  /** The column may hold null (no NOT NULL, not part of the primary key). */
  nullable: boolean;
  /** The database fills the column when an insert leaves it out: a DEFAULT, or an id it assigns itself. */
  filled: boolean;
}

export type MigratedTables = Map<string, Map<string, MigratedColumn>>;

interface ColumnRow {
  table_name: string;
  column_name: string;
  nullable: number | boolean;
  filled: number | boolean;
}

/**
 * The tables of a migrated database (views left out) and their columns, read from the catalog of the
 * connection's own schema: sqlite_master with pragma_table_info on SQLite, information_schema on PostgreSQL.
 */
export async function migratedTables(handle: DbHandle): Promise<MigratedTables> {
  const rows = handle.dialect === 'sqlite' ? await sqliteColumns(handle) : await postgresColumns(handle);
  const tables: MigratedTables = new Map();
  for (const row of rows) {
    if (MIGRATOR_TABLES.has(row.table_name)) continue;
    const columns = tables.get(row.table_name) ?? new Map<string, MigratedColumn>();
    columns.set(row.column_name, { nullable: Boolean(row.nullable), filled: Boolean(row.filled) });
    tables.set(row.table_name, columns);
  }
  return tables;
}

/**
 * A primary-key column counts as NOT NULL: SQLite (unlike PostgreSQL) lets a primary key hold null unless it
 * also says NOT NULL, a legacy quirk the service never relies on (an INTEGER PRIMARY KEY is the rowid and
 * never null), so the one schema type describes both databases. Any INTEGER primary-key column counts as
 * filled, as a rowid may be; PostgreSQL's run checks ids exactly (their serial default). sqlite_* tables are
 * SQLite's own (sqlite_sequence, sqlite_stat1).
 */
async function sqliteColumns(handle: DbHandle): Promise<ColumnRow[]> {
  const { rows } = await sql<ColumnRow>`
    select m.name as table_name, c.name as column_name,
      (c."notnull" = 0 and c.pk = 0) as nullable,
      (c.dflt_value is not null or (c.pk > 0 and upper(c.type) = 'INTEGER')) as filled
    from sqlite_master m, pragma_table_info(m.name) c
    where m.type = 'table' and substr(m.name, 1, 7) <> 'sqlite_'
    order by m.name, c.cid`.execute(handle.db);
  return rows;
}

async function postgresColumns(handle: DbHandle): Promise<ColumnRow[]> {
  const { rows } = await sql<ColumnRow>`
    select c.table_name, c.column_name,
      c.is_nullable = 'YES' as nullable,
      (c.column_default is not null or c.is_identity = 'YES') as filled
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(handle.db);
  return rows;
}
