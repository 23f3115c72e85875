import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Kits (issue 3 items 2–3): a kit is a product with components. kit_components is the catalog recipe;
 * order_route_kit_components is the recipe as it was when a kit line was routed (per route), with the
 * component units that route still holds in inventory.reserved_quantity of the component.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { idType, idColumn }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('kit_components')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('kit_product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('component_product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('kit_components_quantity', sql`quantity >= 1`)
    .execute();
  await db.schema
    .createIndex('kit_components_kit')
    .on('kit_components')
    .columns(['account_id', 'kit_product_id', 'component_product_id'])
    .unique()
    .execute();
  await db.schema.createIndex('kit_components_component').on('kit_components').columns(['account_id', 'component_product_id']).execute();

  await db.schema
    .createTable('order_route_kit_components')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('route_id', 'integer', (c) => c.notNull().references('order_line_routes.id'))
    .addColumn('component_product_id', 'integer', (c) => c.notNull())
    /** Units of the component per kit. */
    .addColumn('component_quantity', 'integer', (c) => c.notNull())
    /** Component units this route holds in the component's inventory.reserved_quantity. */
    .addColumn('reserved_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addCheckConstraint('order_route_kit_components_quantities', sql`component_quantity >= 1 and reserved_quantity >= 0`)
    .execute();
  await db.schema
    .createIndex('order_route_kit_components_route')
    .on('order_route_kit_components')
    .columns(['account_id', 'route_id', 'component_product_id'])
    .unique()
    .execute();
}
