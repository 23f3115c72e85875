import type { ColumnDefinitionBuilder, Kysely, Migration, MigrationProvider } from 'kysely';
import { Migrator, sql } from 'kysely';
import type { Dialect } from '../connect.js';
import * as m001 from './001_foundation.js';
import * as m002 from './002_jobs.js';
import * as m003 from './003_sales_orders.js';
import * as m004 from './004_fulfillment.js';
import * as m005 from './005_order_returns.js';
import * as m006 from './006_kits.js';
import * as m007 from './007_package_tracking_url.js';
import * as m008 from './008_listings.js';
import * as m009 from './009_job_retention.js';
import * as m010 from './010_storefront_fidelity.js';
import * as m011 from './011_idempotency_effects.js';
import * as m012 from './012_order_line_title.js';
import * as m013 from './013_custom_stores.js';
import * as m014 from './014_reports.js';
import * as m015 from './015_inbound.js';
import * as m016 from './016_backorder_index.js';
import * as m017 from './017_callbacks.js';
import * as m018 from './018_nudges.js';
import * as m019 from './019_console_users.js';
import * as m020 from './020_console_attention.js';
import * as m021 from './021_jobs_metrics.js';
import * as m022 from './022_fulfillment_open_queue.js';
import * as m023 from './023_import_validations_completed.js';
import * as m024 from './024_ingestion_apply_chunks.js';
import * as m025 from './025_order_status_recompute.js';
import * as m026 from './026_unrouted_lines.js';
import * as m027 from './027_one_shipper_per_warehouse.js';
import * as m028 from './028_return_receipts.js';
import * as m029 from './029_account_settings.js';
import * as m030 from './030_order_search.js';
import * as m031 from './031_low_stock_threshold.js';
import * as m032 from './032_home_figures.js';
import * as m033 from './033_order_day_figures.js';
import * as m034 from './034_product_search.js';
import * as m035 from './035_sandbox_partner.js';
import * as m036 from './036_product_sku_prefix.js';
import * as m037 from './037_channel_inventory_rules.js';
import * as m038 from './038_personal_data.js';

export interface MigrationContext {
  dialect: Dialect;
  /** Column type of an auto-generated integer id on this dialect. */
  idType: 'integer' | 'serial';
  idColumn: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  /** The operator log: what a migration changed in the data that the operator should hear about. */
  log: MigrationLog;
}

/** The part of the service's logger (pino) a migration uses; silent unless the caller passes its logger. */
export interface MigrationLog {
  warn(details: object, message: string): void;
}

const SILENT: MigrationLog = { warn: () => {} };

type MigrationModule = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
  up(db: Kysely<any>, ctx: MigrationContext): Promise<void>;
};

/** Listed by hand (not read from the directory) so the built and the tsx-run service migrate alike. */
const MIGRATIONS: Record<string, MigrationModule> = {
  '001_foundation': m001,
  '002_jobs': m002,
  '003_sales_orders': m003,
  '004_fulfillment': m004,
  '005_order_returns': m005,
  '006_kits': m006,
  '007_package_tracking_url': m007,
  '008_listings': m008,
  '009_job_retention': m009,
  '010_storefront_fidelity': m010,
  '011_idempotency_effects': m011,
  '012_order_line_title': m012,
  '013_custom_stores': m013,
  '014_reports': m014,
  '015_inbound': m015,
  '016_backorder_index': m016,
  '017_callbacks': m017,
  '018_nudges': m018,
  '019_console_users': m019,
  '020_console_attention': m020,
  '021_jobs_metrics': m021,
  '022_fulfillment_open_queue': m022,
  '023_import_validations_completed': m023,
  '024_ingestion_apply_chunks': m024,
  '025_order_status_recompute': m025,
  '026_unrouted_lines': m026,
  '027_one_shipper_per_warehouse': m027,
  '028_return_receipts': m028,
  '029_account_settings': m029,
  '030_order_search': m030,
  '031_low_stock_threshold': m031,
  '032_home_figures': m032,
  '033_order_day_figures': m033,
  '034_product_search': m034,
  '035_sandbox_partner': m035,
  '036_product_sku_prefix': m036,
  '037_channel_inventory_rules': m037,
  '038_personal_data': m038,
};

function contextFor(dialect: Dialect, log: MigrationLog): MigrationContext {
  return dialect === 'postgres'
    ? { dialect, log, idType: 'serial', idColumn: (c) => c.primaryKey() }
    : { dialect, log, idType: 'integer', idColumn: (c) => c.primaryKey().autoIncrement() };
}

class StaticProvider implements MigrationProvider {
  constructor(
    private readonly dialect: Dialect,
    private readonly log: MigrationLog,
  ) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const ctx = contextFor(this.dialect, this.log);
    return Object.fromEntries(
      Object.entries(MIGRATIONS).map(([name, mod]) => [name, { up: (db: Kysely<unknown>) => mod.up(db, ctx) }]),
    );
  }
}

/**
 * The migrations already applied to the connection's own schema, or null before the first migration. Read
 * directly: Kysely's migrator introspects the columns of EVERY schema of the database before it looks, which
 * costs each process start a catalog scan and fails when another schema is being altered at that moment
 * (parallel test schemas, another application's migration).
 */
async function appliedMigrations(db: Kysely<unknown>, dialect: Dialect): Promise<Set<string> | null> {
  const exists =
    dialect === 'postgres'
      ? (await sql<{ t: string | null }>`select to_regclass('kysely_migration')::text as t`.execute(db)).rows[0]?.t
      : (await sql<{ t: string }>`select name as t from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(db)).rows[0]?.t;
  if (!exists) return null;
  const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  return new Set(rows.rows.map((r) => r.name));
}

/** Brings the schema up to date; safe to run from several processes (Kysely takes a migration lock). */
export async function migrateToLatest(db: Kysely<unknown>, dialect: Dialect, log: MigrationLog = SILENT): Promise<string[]> {
  // A schema that is already up to date (every process start but the first after an upgrade) needs nothing.
  const applied = await appliedMigrations(db, dialect);
  if (applied !== null && Object.keys(MIGRATIONS).every((name) => applied.has(name))) return [];
  // Unless told the schema, Kysely looks for its bookkeeping tables in every schema of the database, finds
  // another schema's (parallel test schemas, other apps) and then fails on "kysely_migration_lock does not exist".
  const migrationTableSchema =
    dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider: new StaticProvider(dialect, log), ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
