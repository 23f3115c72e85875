import type { Generated } from 'kysely';

/**
 * Table types. Conventions shared by both databases: timestamps are ISO-8601 UTC text with milliseconds
 * (sortable as text), booleans are 0/1 integers, JSON is text parsed in the app, ids are integers.
 * Every tenant table starts its keys and indexes with account_id.
 */
export interface AccountsTable {
  id: Generated<number>;
  name: string;
  created_at: string;
}

export interface WarehousesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  channel_fulfilled: number;
  created_at: string;
}

export interface AppsTable {
  id: Generated<number>;
  name: string;
  contact_email: string;
  redirect_uri: string;
  logo_url: string | null;
  kind: string;
  scopes: string;
  callback_base_url: string | null;
  client_id: string;
  client_secret_hash: string;
  /** Previous secret hash, accepted until previous_secret_expires_at (rotation overlap). */
  previous_client_secret_hash: string | null;
  previous_secret_expires_at: string | null;
  /** Signing secrets must be usable as HMAC keys, so they are sealed (AES-GCM), not hashed. */
  callback_signing_secret_sealed: string;
  previous_callback_signing_secret_sealed: string | null;
  created_at: string;
}

export interface InstallationsTable {
  id: Generated<number>;
  account_id: number;
  app_id: number;
  kind: string;
  status: string;
  storefront_name: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface WarehouseMappingsTable {
  account_id: number;
  installation_id: number;
  warehouse_id: number;
  warehouse_unique_id: string;
  /** 1 when the installation's kind (INVENTORY, THIRD_PARTY_LOGISTICS) controls the warehouse's stock. */
  controls_stock: number;
}

export interface AuthCodesTable {
  id: Generated<number>;
  account_id: number;
  installation_id: number;
  app_id: number;
  code_hash: string;
  redirect_uri: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface AccessTokensTable {
  id: Generated<number>;
  account_id: number;
  app_id: number | null;
  installation_id: number | null;
  auth_code_id: number | null;
  token_hash: string;
  kind: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
}

export interface ProductsTable {
  id: Generated<number>;
  account_id: number;
  sku: string;
  /** Lower-cased SKU for case-insensitive lookups, identical on both databases. */
  sku_lower: string;
  standard_product_id: string | null;
  standard_product_id_type: string | null;
  title: string | null;
  active: number;
  /** Latest stock change across warehouses; drives the v1 inventory listing order. */
  inventory_updated_at: string;
  created_at: string;
  updated_at: string;
}

export interface InventoryTable {
  id: Generated<number>;
  account_id: number;
  product_id: number;
  warehouse_id: number;
  available_quantity: number;
  onhand_quantity: number;
  /** Units held by PENDING / PENDING_PAYMENT order lines routed here; maintained by the orders area. */
  reserved_quantity: number;
  assembled_quantity: number | null;
  bin_location: string | null;
  /** The observation time of the last absolute update (v2 observedTs, v1 pulled_ts/validAsOf). */
  observed_at: string | null;
  updated_at: string;
}

export interface InventoryReservationsTable {
  id: Generated<number>;
  account_id: number;
  product_id: number;
  warehouse_id: number;
  order_line_id: number;
  quantity: number;
  routed_at: string;
}

export interface IdempotencyKeysTable {
  token_id: number;
  idem_key: string;
  account_id: number;
  request_hash: string;
  state: string;
  status_code: number | null;
  response_body: string | null;
  content_type: string | null;
  created_at: string;
  expires_at: string;
}

export interface Database {
  accounts: AccountsTable;
  warehouses: WarehousesTable;
  apps: AppsTable;
  installations: InstallationsTable;
  warehouse_mappings: WarehouseMappingsTable;
  auth_codes: AuthCodesTable;
  access_tokens: AccessTokensTable;
  products: ProductsTable;
  inventory: InventoryTable;
  inventory_reservations: InventoryReservationsTable;
  idempotency_keys: IdempotencyKeysTable;
}
