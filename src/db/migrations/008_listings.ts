import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Listings and storefront sync (issue 4): listings per storefront with variants, versioned attribute
 * values, storefront settings, submissions, channel errors, taxonomy and ingestion sessions.
 * Every poll is a keyset over (timestamp, id) within (account, storefront), so each has its own index.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { idType, idColumn }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('storefront_settings')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('storefront_id', 'integer', (c) => c.notNull().references('installations.id'))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('storefront_settings_pk', ['account_id', 'storefront_id'])
    .execute();

  await db.schema
    .createTable('listings')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('storefront_id', 'integer', (c) => c.notNull().references('installations.id'))
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('product_data_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('category_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('product_type_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pivot_attributes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('swatch_image_attribute_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('product_data_updated_at', 'text', (c) => c.notNull())
    .addColumn('channel_listing_id', 'text')
    .addColumn('has_channel_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('poll_updated_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('listings_sku').on('listings').columns(['account_id', 'storefront_id', 'sku']).unique().execute();
  await db.schema
    .createIndex('listings_product_data_poll')
    .on('listings')
    .columns(['account_id', 'storefront_id', 'has_channel_id', 'poll_updated_at', 'id'])
    .execute();
  await db.schema.createIndex('listings_updated').on('listings').columns(['account_id', 'updated_at', 'id']).execute();

  await db.schema
    .createTable('listing_variants')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('storefront_id', 'integer', (c) => c.notNull().references('installations.id'))
    .addColumn('listing_id', 'integer', (c) => c.references('listings.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('channel_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('product_data_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('product_data_updated_at', 'text', (c) => c.notNull())
    .addColumn('identifiers_updated_at', 'text', (c) => c.notNull())
    .addColumn('logistics_updated_at', 'text', (c) => c.notNull())
    .addColumn('pricing_updated_at', 'text', (c) => c.notNull())
    .addColumn('pricing_sales', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('inventory_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('merchant_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('storefront_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('warehouse_quantities', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('inventory_updated_at', 'text', (c) => c.notNull())
    .addColumn('intended_changed_at', 'text', (c) => c.notNull())
    .addColumn('last_sent_quantity', 'integer')
    .addColumn('last_sent_at', 'text')
    .addColumn('last_failed_at', 'text')
    .addColumn('drifting', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('channel_status', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('listing_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('buyable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('channel_listing_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status_updated_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('listing_variants_quantities', sql`merchant_quantity >= 0 and storefront_quantity >= 0`)
    .execute();
  await db.schema.createIndex('listing_variants_sku').on('listing_variants').columns(['account_id', 'storefront_id', 'sku']).unique().execute();
  await db.schema.createIndex('listing_variants_listing').on('listing_variants').columns(['account_id', 'listing_id', 'position', 'id']).execute();
  await db.schema.createIndex('listing_variants_product').on('listing_variants').columns(['account_id', 'product_id']).execute();
  await db.schema
    .createIndex('listing_variants_inventory_poll')
    .on('listing_variants')
    .columns(['account_id', 'storefront_id', 'inventory_updated_at', 'id'])
    .execute();
  await db.schema
    .createIndex('listing_variants_pricing_poll')
    .on('listing_variants')
    .columns(['account_id', 'storefront_id', 'pricing_updated_at', 'id'])
    .execute();
  await db.schema
    .createIndex('listing_variants_drift')
    .on('listing_variants')
    .columns(['account_id', 'storefront_id', 'drifting', 'intended_changed_at', 'id'])
    .execute();

  // One row per attribute value. owner_type 'L' = the listing's productData, 'V' = a variant's group.
  await db.schema
    .createTable('listing_attributes')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('owner_type', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('group_name', 'text', (c) => c.notNull())
    .addColumn('attribute_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('version_id', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'text')
    .execute();
  await db.schema
    .createIndex('listing_attributes_owner')
    .on('listing_attributes')
    .columns(['account_id', 'owner_type', 'owner_id', 'group_name', 'attribute_id'])
    .unique()
    .execute();
  await db.schema.createIndex('listing_attributes_version').on('listing_attributes').columns(['account_id', 'version_id']).execute();

  await db.schema
    .createTable('listing_variant_errors')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('variant_id', 'integer', (c) => c.notNull().references('listing_variants.id'))
    .addColumn('submission_type', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('attribute_ids', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('listing_variant_errors_variant')
    .on('listing_variant_errors')
    .columns(['account_id', 'variant_id', 'submission_type', 'position'])
    .execute();

  await db.schema
    .createTable('listing_submissions')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('storefront_id', 'integer', (c) => c.notNull().references('installations.id'))
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('content_sent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content_received', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('successful', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('submitted_attribute_version_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('prepared_at', 'text')
    .addColumn('submitted_at', 'text')
    .addColumn('acknowledged_at', 'text')
    .addColumn('changed_at', 'text')
    .addColumn('inventory_level_sent', 'integer')
    .addColumn('inventory_successful', 'integer')
    .addColumn('inventory_recorded_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('listing_submissions_type_sku')
    .on('listing_submissions')
    .columns(['account_id', 'storefront_id', 'type', 'sku', 'id'])
    .execute();
  // One row per (storefront, type, sku) ever submitted: replacing a pair's submissions upserts it first,
  // which row-locks the pair on PostgreSQL, so two parallel replaces of one pair cannot both insert.
  await db.schema
    .createTable('listing_submission_keys')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('storefront_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('replaced_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('listing_submission_keys_pk', ['account_id', 'storefront_id', 'type', 'sku'])
    .execute();
  await db.schema.createIndex('listing_submissions_sku').on('listing_submissions').columns(['account_id', 'storefront_id', 'sku', 'id']).execute();

  await db.schema
    .createTable('taxonomy_product_types')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('storefront_id', 'integer', (c) => c.notNull().references('installations.id'))
    .addColumn('product_type_id', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('taxonomy_product_types_key')
    .on('taxonomy_product_types')
    .columns(['account_id', 'storefront_id', 'product_type_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('taxonomy_attribute_specs')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('storefront_id', 'integer', (c) => c.notNull().references('installations.id'))
    .addColumn('product_type_id', 'text', (c) => c.notNull())
    .addColumn('attribute_spec_id', 'text', (c) => c.notNull())
    /** The specification as stored (2.15 fields other than the ids and timestamps), JSON text. */
    .addColumn('spec', 'text', (c) => c.notNull())
    .addColumn('max_unique_items', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('taxonomy_attribute_specs_key')
    .on('taxonomy_attribute_specs')
    .columns(['account_id', 'storefront_id', 'product_type_id', 'attribute_spec_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('ingestion_sessions')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('storefront_id', 'integer', (c) => c.notNull().references('installations.id'))
    /** OPEN → PLANNING → PLANNED → APPLIED, or FAILED / DISCARDED. */
    .addColumn('status', 'text', (c) => c.notNull())
    /** The storefront id while OPEN, null afterwards: at most one open session per storefront. */
    .addColumn('open_key', 'integer')
    .addColumn('expected_num_listings', 'integer', (c) => c.notNull())
    .addColumn('actual_num_listings', 'integer')
    .addColumn('received_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('auto_apply', 'integer', (c) => c.notNull())
    .addColumn('plan', 'text')
    /** The plan's counts, JSON text, so listing sessions never parses whole plans. */
    .addColumn('plan_summary', 'text')
    .addColumn('error', 'text')
    .addColumn('begun_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .addColumn('planned_at', 'text')
    .addColumn('applied_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ingestion_sessions_open').on('ingestion_sessions').column('open_key').unique().execute();
  await db.schema.createIndex('ingestion_sessions_storefront').on('ingestion_sessions').columns(['account_id', 'storefront_id', 'id']).execute();

  await db.schema
    .createTable('ingestion_listings')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('session_id', 'integer', (c) => c.notNull().references('ingestion_sessions.id'))
    .addColumn('external_id', 'text', (c) => c.notNull())
    /** The ingestion listing (2.19) as received, normalised, JSON text. */
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ingestion_listings_key')
    .on('ingestion_listings')
    .columns(['account_id', 'session_id', 'external_id'])
    .unique()
    .execute();
}
