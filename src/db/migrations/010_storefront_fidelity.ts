import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * v2 storefront fidelity (resolutions §7):
 * - a listing's product data carries standaloneVariants, baseListingSku and retireBaseParent, set by the
 *   seller; existing listings read as the defaults (false, "", false).
 * - storefront valid values: a storefront's own list of valid values for a select-type attribute spec, which
 *   replaces the spec's list for that storefront. Keyed by the spec id alone, as the channel sends it.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  // One ALTER per column: SQLite adds one column per statement.
  await db.schema.alterTable('listings').addColumn('standalone_variants', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('listings').addColumn('base_listing_sku', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('listings').addColumn('retire_base_parent', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('storefront_valid_values')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('storefront_id', 'integer', (c) => c.notNull().references('installations.id'))
    .addColumn('spec_id', 'text', (c) => c.notNull())
    /** JSON array of strings, in the order the channel sent them. */
    .addColumn('valid_values', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('storefront_valid_values_pk', ['account_id', 'storefront_id', 'spec_id'])
    .execute();
}
