import { statSync } from 'node:fs';
import { sql } from 'kysely';
import type { DbHandle } from './connect.js';

export interface DatabaseSize {
  bytes: number;
  /** What was measured, in an operator's words. */
  what: string;
}

/** The bytes of a file, or null when it does not exist (a WAL after a clean close). */
function fileBytes(file: string): number | null {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}

/**
 * How much room the service's data takes. SQLite: the main file's pages (page_count × page_size) plus the
 * WAL file beside it when there is one. PostgreSQL: the whole database (pg_database_size), or, when the
 * service runs in its own schema (search_path, as the tests and a shared database do), that schema's
 * tables with their indexes and TOAST. Catalog reads only: nothing scans the data.
 */
export async function databaseSize(handle: DbHandle): Promise<DatabaseSize> {
  const { db } = handle;
  if (handle.dialect === 'sqlite') {
    const pages = await sql<{ bytes: number; file: string | null }>`select p.page_count * s.page_size as bytes, (select file from pragma_database_list where name = 'main') as file from pragma_page_count() p, pragma_page_size() s`.execute(db);
    const row = pages.rows[0];
    const main = Number(row?.bytes ?? 0);
    const file = row?.file ?? '';
    if (file === '') return { bytes: main, what: 'SQLite, in memory' };
    const wal = fileBytes(`${file}-wal`);
    return wal === null ? { bytes: main, what: 'SQLite file' } : { bytes: main + wal, what: `SQLite file and its write-ahead log (${formatBytes(wal)})` };
  }
  const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema ?? 'public';
  if (schema === 'public') {
    const row = (await sql<{ bytes: number | string }>`select pg_database_size(current_database()) as bytes`.execute(db)).rows[0];
    return { bytes: Number(row?.bytes ?? 0), what: 'PostgreSQL database' };
  }
  const row = (
    await sql<{ bytes: number | string | null }>`select sum(pg_total_relation_size(c.oid)) as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind in ('r', 'm')`.execute(db)
  ).rows[0];
  return { bytes: Number(row?.bytes ?? 0), what: `PostgreSQL schema ${schema}` };
}

/** 1536 → "1.5 KB" (powers of 1024, one decimal below 10). */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${bytes} bytes`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')} ${units[unit]}`;
}
