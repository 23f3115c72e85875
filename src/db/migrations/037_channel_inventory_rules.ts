import type { Kysely } from 'kysely';

/**
 * Channel inventory rules (resolutions §9, issue 28; src/domain/inventory/channel-rules*.ts):
 * - storefront_inventory_rules: a storefront's rule set, one row when the seller set one (no row = the
 *   defaults). warehouse_ids is a JSON array of warehouse ids, null for "every seller warehouse that is not
 *   channel-fulfilled" (so a warehouse added later feeds the channel too). apply_after_variant_id is the
 *   checkpoint of the job that moves the storefront's variants to new rules (a change resets it to 0).
 * - storefront_inventory_rule_overrides: per-SKU overrides of a storefront's rules. `fields` is the JSON of
 *   the fields the override sets (a field left out follows the storefront; null is a value), by product, so
 *   the stock path finds a product's override by its key.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('storefront_inventory_rules')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('storefront_id', 'integer', (c) => c.notNull().references('installations.id'))
    .addColumn('warehouse_ids', 'text')
    .addColumn('percent', 'integer', (c) => c.notNull())
    .addColumn('safety_quantity', 'integer', (c) => c.notNull())
    .addColumn('max_quantity', 'integer')
    .addColumn('fixed_quantity', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // The variant id the rules' propagation has reached (null: every variant follows the current rules).
    .addColumn('apply_after_variant_id', 'integer')
    .addPrimaryKeyConstraint('storefront_inventory_rules_pk', ['account_id', 'storefront_id'])
    .execute();
  await db.schema
    .createTable('storefront_inventory_rule_overrides')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('storefront_id', 'integer', (c) => c.notNull().references('installations.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('storefront_inventory_rule_overrides_pk', ['account_id', 'storefront_id', 'product_id'])
    .execute();
  // The move to changed rules walks a storefront's variants by id from its checkpoint.
  await db.schema.createIndex('listing_variants_storefront_id').on('listing_variants').columns(['account_id', 'storefront_id', 'id']).execute();
  // A product's overrides in every storefront (the stock path), and a storefront's in SKU order (the API).
  await db.schema.createIndex('storefront_inventory_rule_overrides_product').on('storefront_inventory_rule_overrides').columns(['account_id', 'product_id']).execute();
  await db.schema.createIndex('storefront_inventory_rule_overrides_sku').on('storefront_inventory_rule_overrides').columns(['account_id', 'storefront_id', 'sku']).execute();
}
