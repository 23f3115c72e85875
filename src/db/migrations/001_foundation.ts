import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { MigrationContext } from './index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { idType, idColumn }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', idType, idColumn)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('warehouses')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('channel_fulfilled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('warehouses_account').on('warehouses').columns(['account_id', 'id']).execute();
  await db.schema
    .createIndex('warehouses_account_name')
    .on('warehouses')
    .columns(['account_id', 'name'])
    .unique()
    .execute();

  await db.schema
    .createTable('apps')
    .addColumn('id', idType, idColumn)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('contact_email', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('logo_url', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('callback_base_url', 'text')
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('client_secret_hash', 'text', (c) => c.notNull())
    .addColumn('previous_client_secret_hash', 'text')
    .addColumn('previous_secret_expires_at', 'text')
    .addColumn('callback_signing_secret_sealed', 'text', (c) => c.notNull())
    .addColumn('previous_callback_signing_secret_sealed', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('installations')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('storefront_name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('installations_account').on('installations').columns(['account_id', 'id']).execute();

  await db.schema
    .createTable('warehouse_mappings')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('installation_id', 'integer', (c) => c.notNull().references('installations.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouses.id'))
    .addColumn('warehouse_unique_id', 'text', (c) => c.notNull())
    .addColumn('controls_stock', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('warehouse_mappings_pk', ['account_id', 'installation_id', 'warehouse_id'])
    .execute();
  await db.schema
    .createIndex('warehouse_mappings_unique_id')
    .on('warehouse_mappings')
    .columns(['installation_id', 'warehouse_unique_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('warehouse_mappings_warehouse')
    .on('warehouse_mappings')
    .columns(['account_id', 'warehouse_id'])
    .execute();

  await db.schema
    .createTable('auth_codes')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('installation_id', 'integer', (c) => c.notNull().references('installations.id'))
    .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id'))
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('app_id', 'integer')
    .addColumn('installation_id', 'integer')
    .addColumn('auth_code_id', 'integer')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('access_tokens_account').on('access_tokens').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('access_tokens_code').on('access_tokens').columns(['auth_code_id']).execute();

  await db.schema
    .createTable('products')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('sku_lower', 'text', (c) => c.notNull())
    .addColumn('standard_product_id', 'text')
    .addColumn('standard_product_id_type', 'text')
    .addColumn('title', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('inventory_updated_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('products_account_sku').on('products').columns(['account_id', 'sku']).unique().execute();
  await db.schema.createIndex('products_account_sku_lower').on('products').columns(['account_id', 'sku_lower']).execute();
  await db.schema
    .createIndex('products_account_inventory_updated')
    .on('products')
    .columns(['account_id', 'inventory_updated_at', 'id'])
    .execute();

  await db.schema
    .createTable('inventory')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouses.id'))
    .addColumn('available_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('onhand_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reserved_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('assembled_quantity', 'integer')
    .addColumn('bin_location', 'text')
    .addColumn('observed_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('inventory_reserved_not_negative', sql`reserved_quantity >= 0`)
    .execute();
  await db.schema
    .createIndex('inventory_product_warehouse')
    .on('inventory')
    .columns(['account_id', 'product_id', 'warehouse_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('inventory_account_updated')
    .on('inventory')
    .columns(['account_id', 'updated_at', 'id'])
    .execute();
  await db.schema
    .createIndex('inventory_account_warehouse')
    .on('inventory')
    .columns(['account_id', 'warehouse_id', 'product_id'])
    .execute();

  await db.schema
    .createTable('inventory_reservations')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('order_line_id', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('routed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('inventory_reservations_stock')
    .on('inventory_reservations')
    .columns(['account_id', 'product_id', 'warehouse_id', 'routed_at'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('token_id', 'integer', (c) => c.notNull())
    .addColumn('idem_key', 'text', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('content_type', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['token_id', 'idem_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').columns(['expires_at']).execute();
}
