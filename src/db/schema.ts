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
  /** Account settings (resolutions §10; migration 029): ISO 4217 code the console shows money in. */
  currency_code: Generated<string>;
  /** IANA time zone name the console shows dates in. */
  time_zone: Generated<string>;
  /** Days buyers' personal data is kept after an order closes; null keeps it (the sweep: src/domain/personal-data/retention-sweep.ts). */
  personal_data_retention_days: Generated<number | null>;
}

export interface WarehousesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  channel_fulfilled: number;
  created_at: string;
}

export interface CustomStoresTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** 1 for the account's one default store. */
  is_default: number;
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

/** Callbacks to partners (migration 017): the outbox row of one event; `delivery_id` is public. */
export interface CallbackDeliveriesTable {
  id: Generated<number>;
  delivery_id: string;
  account_id: number;
  app_id: number;
  storefront_id: number | null;
  /** INITIATE_INGESTION, STOREFRONT_STATUS, DELETE_CONFIGURATION or NUDGE. */
  kind: string;
  method: string;
  /** Relative to the app's callback base URL (joined at send time). */
  path: string;
  /** JSON text (POST only). */
  body: string | null;
  /** PENDING, SUCCEEDED or DEAD. */
  state: string;
  attempts: number;
  /** attempts when the current round (creation or replay) began: the retry schedule counts from it. */
  round_start: number;
  next_attempt_at: string | null;
  /** The job allowed to send the next attempt; others are stale and do nothing. */
  current_job_id: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
  /**
   * NUDGE only, `installation:eventType:objectId` while the nudge is PENDING and not yet sent (cleared when
   * its first attempt starts): a later event for the same object updates this row instead of adding one.
   */
  coalesce_key: string | null;
}

/** An app's subscription to one event type of extension nudges (migration 018). */
export interface AppEventSubscriptionsTable {
  app_id: number;
  event_type: string;
  created_at: string;
}

export interface CallbackAttemptsTable {
  id: Generated<number>;
  account_id: number;
  delivery_row_id: number;
  attempt: number;
  /** SUCCEEDED or FAILED. */
  outcome: string;
  url: string;
  http_status: number | null;
  latency_ms: number;
  error: string | null;
  /** Capped (send.ts). */
  response_body: string;
  started_at: string;
  finished_at: string;
}

/** Apps the sandbox pointed at its partner simulator (migration 035, src/domain/sandbox-partner/). */
export interface SandboxPartnerAppsTable {
  app_id: number;
  account_id: number;
  created_at: string;
}

/** What the sandbox's partner simulator received, newest kept per app (migration 035). */
export interface SandboxPartnerCallsTable {
  id: Generated<number>;
  account_id: number;
  app_id: number;
  received_at: string;
  method: string;
  path: string;
  delivery_id: string;
  kind: string | null;
  verified: number;
  rejection: string | null;
  status: number;
}

export interface StorefrontStatusChecksTable {
  account_id: number;
  storefront_id: number;
  /** JSON text: checks[] of document 2.20. */
  checks: string;
  checked_at: string;
  delivery_id: string;
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
  /**
   * 1 while an ACTIVE SHIPPING or THIRD_PARTY_LOGISTICS installation ships from the warehouse through this
   * mapping (027_one_shipper_per_warehouse): unique per (account, warehouse) among the 1s.
   */
  fulfills: Generated<number>;
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
  /** Catalog fields (migration 014): optional text; prices and measures are decimal strings. */
  description: string | null;
  brand: string | null;
  manufacturer: string | null;
  mpn: string | null;
  model_number: string | null;
  product_condition: string | null;
  upc: string | null;
  ean: string | null;
  isbn: string | null;
  gtin: string | null;
  price: string | null;
  msrp: string | null;
  map_price: string | null;
  cost: string | null;
  weight: string | null;
  weight_unit: string | null;
  length: string | null;
  width: string | null;
  height: string | null;
  dimension_unit: string | null;
  category: string | null;
  tags: string | null;
  image_url: string | null;
  /** Latest stock change across warehouses; drives the v1 inventory listing order. */
  inventory_updated_at: string;
  created_at: string;
  updated_at: string;
  /**
   * Weighted-average landed unit cost of the units received on inbound shipments (migration 015):
   * landed_cost_total / landed_cost_units rounded to 4 decimals, null before the first costed receipt.
   */
  landed_cost: Generated<string | null>;
  landed_cost_units: Generated<number>;
  /** Decimal string: Σ units × (unit cost + allocated shipping) over the costed units received. */
  landed_cost_total: Generated<string>;
  /** Low-stock alert level (migration 031): units available across sellable warehouses at or below it; null = no alert. */
  low_stock_threshold: Generated<number | null>;
  /** low_stock_threshold − units available in sellable warehouses, kept by every stock change (migration 031); null without a threshold. */
  low_stock_gap: Generated<number | null>;
}

export interface InventoryTable {
  id: Generated<number>;
  account_id: number;
  product_id: number;
  warehouse_id: number;
  available_quantity: number;
  onhand_quantity: number;
  /** Units held by PENDING / PENDING_PAYMENT order lines routed here (src/domain/inventory/reserved-stock.ts, on the orders area's request). */
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
  /** The request that owns a PENDING key; a takeover changes it (src/db/effect-journal.ts). */
  claim_id: string | null;
}

/** Results of the transactions a keyed request committed, until its response is stored (src/db/effect-journal.ts). */
export interface IdempotencyEffectsTable {
  token_id: number;
  idem_key: string;
  seq: number;
  account_id: number;
  /** v8-serialized result, base64; "" when the result could not be recorded. */
  result: string;
  expires_at: string;
}

/**
 * Background jobs (outbox), see src/jobs/. One queue for every account, so its leasing indexes start with
 * status rather than account_id; the operator listing has an (account_id, id) index.
 */
export interface JobsTable {
  id: Generated<number>;
  /** Null for service jobs that belong to no account. */
  account_id: number | null;
  type: string;
  /** JSON text. */
  payload: string;
  /** PENDING, RUNNING, SUCCEEDED or DEAD. */
  status: string;
  attempts: number;
  max_attempts: number;
  run_at: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  last_error: string | null;
  /** At most one PENDING or RUNNING job per key. */
  dedupe_key: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** One row per finished attempt of a job (SUCCEEDED or FAILED), for the operator. */
export interface JobAttemptsTable {
  id: Generated<number>;
  account_id: number | null;
  job_id: number;
  attempt: number;
  worker: string;
  outcome: string;
  error: string | null;
  started_at: string;
  finished_at: string;
}

/** Recurring jobs: the worker that moves next_run_at forward enqueues the run. */
export interface JobSchedulesTable {
  name: string;
  next_run_at: string;
  last_job_id: number | null;
  updated_at: string;
}

/** Sales orders (migration 003). Money is decimal text; accounting and addresses are JSON text. */
export interface SalesOrdersTable {
  id: Generated<number>;
  account_id: number;
  /** Sales-channel installation that sent the order; null for seller-created orders. */
  storefront_id: number | null;
  /** Scope of channel_order_id uniqueness: "s:<storefrontId>" or "c:<channel>" (seller-created). */
  channel_key: string;
  channel: string;
  channel_label: string | null;
  channel_order_id: string;
  channel_order_reference_number: string | null;
  status: string;
  paid: number;
  paid_ts: string | null;
  cancellation_reason: string | null;
  customer_notes: string | null;
  marketplace_id: string | null;
  customer_name: string | null;
  customer_email: string | null;
  order_ts: string;
  requested_service_level: string | null;
  standard_service_level: string;
  accounting: string | null;
  shipping_address: string | null;
  billing_address: string | null;
  fba: number;
  channel_will_fulfill: number;
  prime: number;
  business_order: number;
  accepted_ts: string | null;
  created_at: string;
  last_updated_ts: string;
  /** When the order last became closed (038_personal_data; src/domain/orders/closing.ts); null while open. */
  closed_ts: Generated<string | null>;
  /** When its buyer's personal data was cleared (resolutions §10); null until then. */
  personal_data_redacted_ts: Generated<string | null>;
}

/** Open orders a buyer asked to erase, redacted once they close (038_personal_data). No email is kept. */
export interface PersonalDataErasuresTable {
  account_id: number;
  order_id: number;
  requested_ts: string;
  requested_by: string;
}

/** Who redacted what and how many orders (038_personal_data); never the personal data itself. */
export interface PersonalDataAuditTable {
  id: Generated<number>;
  account_id: number;
  /** ERASE_BUYER, ERASE_ORDER or RETENTION_SWEEP. */
  action: string;
  requested_by: string;
  redacted_orders: number;
  pending_orders: number;
  created_at: string;
}

/**
 * The order search's terms (030_order_search; src/domain/orders/order-search.ts): the words of an order's
 * number, channel ids, customer and ship-to name and email, and SKUs. The only copy of personal data outside
 * the order itself; rebuildOrderSearch rewrites an order's terms from the order.
 */
export interface SalesOrderSearchTermsTable {
  account_id: number;
  term: string;
  order_id: number;
}

/** The home chart's rollup (migration 033, src/domain/orders/order-day-figures.ts). */
export interface SalesOrderQuarterHoursTable {
  account_id: number;
  /** UTC quarter hour: epoch milliseconds / 900,000. */
  quarter: number;
  /** Orders placed in it, cancelled in full left out. */
  orders: number;
  /** Σ of their totals in units of 1/10,000 (bigint: a string on PostgreSQL). */
  sales: string | number;
}

/** The catalog search's words (migration 034, src/domain/catalog/product-search.ts). */
export interface ProductSearchTermsTable {
  account_id: number;
  term: string;
  product_id: number;
}

/** Each order's total (Σ quantity × unit price) for the console's sort by total (030_order_search). */
export interface SalesOrderTotalsTable {
  account_id: number;
  order_id: number;
  /** numeric: a number on SQLite, a decimal string on PostgreSQL. */
  total: string | number;
}

export interface SalesOrderLinesTable {
  id: Generated<number>;
  account_id: number;
  order_id: number;
  position: number;
  channel_line_item_id: string | null;
  status: string;
  requested_title: string | null;
  /** The title the channel sent on create; null when not sent (the view then shows the catalog's). */
  title: string | null;
  requested_sku: string;
  /** Null while the requested SKU is unknown; the line is then not routed (unrouted_quantity). */
  product_id: number | null;
  sku: string | null;
  quantity: number;
  cancel_quantity: number;
  shipped_quantity: number;
  returned_quantity: number;
  /**
   * Units on no route, neither routed nor cancelled (026_unrouted_lines): an unknown SKU, or no warehouse to
   * backorder in. They count as backordered and keep an alert on the order until routed or cancelled.
   */
  unrouted_quantity: number;
  unit_price: string | null;
  cost: string | null;
  total_weight: string | null;
  package_dimensions: string | null;
  hazmat: string | null;
  refund: string | null;
  refund_reason: string | null;
  gift_wrap_message: string | null;
  gift_wrap_level: string | null;
  earliest_ship_by: string | null;
  latest_ship_by: string | null;
  earliest_deliver_by: string | null;
  latest_deliver_by: string | null;
  requested_service_level: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Units of a line placed in one warehouse: quantity = reserved + backordered + shipped + cancelled.
 * reserved units are held in inventory.reserved_quantity; backordered ones reserve nothing.
 */
export interface OrderLineRoutesTable {
  id: Generated<number>;
  account_id: number;
  order_id: number;
  line_id: number;
  warehouse_id: number;
  product_id: number;
  quantity: number;
  reserved_quantity: number;
  backorder_quantity: number;
  shipped_quantity: number;
  cancelled_quantity: number;
  assembled_quantity: number | null;
  routed_at: string;
  updated_at: string;
}

export interface SalesOrderStatusConfirmationsTable {
  id: Generated<number>;
  account_id: number;
  order_id: number;
  token_id: number;
  status: string;
  /** JSON array of line item ids. */
  line_items: string;
  confirmed_at: string;
}

export interface SalesOrderPackagesTable {
  id: Generated<number>;
  account_id: number;
  order_id: number;
  warehouse_id: number | null;
  /** fulfillmentPackageId (v1) or externalShipmentId (v2): the replay key within the order. */
  external_package_id: string;
  source: string;
  carrier: string | null;
  service_level: string | null;
  cost: string | null;
  tracking: string | null;
  shipped_ts: string;
  rma: string | null;
  label_url: string | null;
  /** v2 trackingUrl: the carrier's tracking page (007_package_tracking_url); not labelUrl. */
  tracking_url: string | null;
  package_weight: string | null;
  package_weight_uom: string | null;
  package_height: string | null;
  package_width: string | null;
  package_length: string | null;
  shipped_from: string | null;
  shipped_to: string | null;
  created_at: string;
}

export interface SalesOrderPackageItemsTable {
  id: Generated<number>;
  account_id: number;
  package_id: number;
  line_id: number;
  quantity: number;
}

export interface SalesOrderReturnsTable {
  id: Generated<number>;
  account_id: number;
  order_id: number;
  channel_return_id: string | null;
  request_ts: string;
  cancelled: number;
  /** When the seller recorded the units as received back (005_order_returns); null while requested. */
  received_ts: string | null;
  created_at: string;
  /** Warehouse the received units were put back into (028_return_receipts); null when not restocked. */
  restock_warehouse_id: number | null;
  /** Units the receipt added to that warehouse's stock; 0 when not restocked. */
  restocked_quantity: Generated<number>;
  /** When the seller closed the return; closed before being received means cancelled too. */
  closed_ts: string | null;
}

export interface SalesOrderReturnItemsTable {
  id: Generated<number>;
  account_id: number;
  return_id: number;
  line_id: number;
  quantity: number;
  original_quantity: number;
  refund_amount: string | null;
}

/** Fulfillment orders (migration 004): (order, warehouse) owed by a shipping / 3PL integration. */
export interface FulfillmentOrdersTable {
  id: Generated<number>;
  account_id: number;
  order_id: number;
  warehouse_id: number;
  installation_id: number;
  /**
   * Stored state NEW, ACCEPTED, REJECTED, or WITHDRAWN (the warehouse was unmapped from the integration or it
   * was uninstalled: 027_one_shipper_per_warehouse); shipped and cancelled states are derived from the routes.
   */
  status: string;
  external_order_id: string | null;
  assigned_ts: string;
  acknowledged_ts: string | null;
  rejection_reason: string | null;
  rejection_detail: string | null;
  rejected_ts: string | null;
  created_at: string;
  last_updated_ts: string;
}

export interface FulfillmentCancellationRequestsTable {
  id: Generated<number>;
  account_id: number;
  fulfillment_order_id: number;
  /** OPEN, CONFIRMED or CLOSED. */
  status: string;
  /** The fulfillment order id while OPEN, null afterwards (one open request per fulfillment order). */
  open_key: number | null;
  reason: string;
  requested_ts: string;
  confirmed_ts: string | null;
  already_shipped: number;
  updated_at: string;
}

export interface FulfillmentCancellationLinesTable {
  id: Generated<number>;
  account_id: number;
  request_id: number;
  line_id: number;
  quantity: number;
}

export interface FulfillmentAlertsTable {
  id: Generated<number>;
  account_id: number;
  fulfillment_order_id: number;
  type: string;
  message: string;
  line_id: number | null;
  /** Null when the service raised the alert. */
  raised_by_installation_id: number | null;
  /** OPEN or RESOLVED. */
  status: string;
  open_key: string | null;
  resolution: string | null;
  created_at: string;
  resolved_ts: string | null;
}

/** Kit recipe (migration 006): units of a component product per kit product. */
export interface KitComponentsTable {
  id: Generated<number>;
  account_id: number;
  kit_product_id: number;
  component_product_id: number;
  quantity: number;
  created_at: string;
}

/**
 * A kit line's route: the recipe when it was routed, and the component units still reserved for the kits
 * built from components (route.reserved_quantity counts those kits too; route.assembled_quantity says how
 * many of the routed kits were already assembled).
 */
export interface OrderRouteKitComponentsTable {
  id: Generated<number>;
  account_id: number;
  route_id: number;
  component_product_id: number;
  component_quantity: number;
  reserved_quantity: number;
}

/** A storefront's channel inventory rules (migration 037; resolutions §9): no row = the defaults. */
export interface StorefrontInventoryRulesTable {
  account_id: number;
  storefront_id: number;
  /** JSON array of warehouse ids; null = every seller warehouse that is not channel-fulfilled. */
  warehouse_ids: string | null;
  percent: number;
  safety_quantity: number;
  max_quantity: number | null;
  fixed_quantity: number | null;
  updated_at: string;
  /** Checkpoint of the propagation job: the last variant id moved to these rules; null when all are. */
  apply_after_variant_id: number | null;
}

/** A per-SKU override of a storefront's inventory rules (migration 037). */
export interface StorefrontInventoryRuleOverridesTable {
  account_id: number;
  storefront_id: number;
  product_id: number;
  sku: string;
  /** JSON of the fields the override sets (ChannelRuleOverride); a field left out follows the storefront. */
  fields: string;
}

/** Integration-level settings of a storefront (migration 008): JSON object of string → string. */
export interface StorefrontSettingsTable {
  account_id: number;
  storefront_id: number;
  settings: string;
  updated_at: string;
}

/** A listing on one storefront (migration 008). JSON columns are text parsed in the app. */
export interface ListingsTable {
  id: Generated<number>;
  account_id: number;
  storefront_id: number;
  /** The group SKU: represents the whole listing. */
  sku: string;
  product_data_enabled: number;
  category_id: string;
  product_type_id: string;
  /** JSON array of attribute ids. */
  pivot_attributes: string;
  /** JSON array of attribute ids. */
  swatch_image_attribute_ids: string;
  /** productData.updatedAt of the listing (its own attribute group). */
  product_data_updated_at: string;
  /** productData.standaloneVariants (0/1; default 0, so optional on insert). */
  standalone_variants: Generated<number>;
  /** productData.baseListingSku ('' = none, the default). */
  base_listing_sku: Generated<string>;
  /** productData.retireBaseParent (0/1; default 0). */
  retire_base_parent: Generated<number>;
  /** The channel's own id of the listing (ingestion's listing id); null when unknown. */
  channel_listing_id: string | null;
  /** 1 while at least one variant has a channel id (drives product_data/updated versus listing/new). */
  has_channel_id: number;
  /** Latest product-data change of the listing or any of its variants: the product_data/updated keyset. */
  poll_updated_at: string;
  created_at: string;
  updated_at: string;
}

/**
 * A variant (migration 008): one catalog product on one listing. The inventory columns are a copy of the
 * product's stock kept current by the inventory area in the transaction that changes stock, so the polls
 * and the drift query read one table.
 */
export interface ListingVariantsTable {
  id: Generated<number>;
  account_id: number;
  storefront_id: number;
  /** Null for a variant detached from a deleted listing that is still live on the channel. */
  listing_id: number | null;
  product_id: number;
  sku: string;
  position: number;
  channel_id: string;
  /** Variant-level settings, JSON object string → string (merged over the storefront's on output). */
  settings: string;
  product_data_enabled: number;
  product_data_updated_at: string;
  identifiers_updated_at: string;
  logistics_updated_at: string;
  pricing_updated_at: string;
  /** JSON array of {strikeThroughPrice, salePrice, startAt, endAt}. */
  pricing_sales: string;
  inventory_enabled: number;
  merchant_quantity: number;
  storefront_quantity: number;
  /** JSON array of {warehouseId: string, quantity: number} (merchant-fulfillable warehouses). */
  warehouse_quantities: string;
  /** inventory.updatedAt: any stock change of the product or an inventory enable/disable. */
  inventory_updated_at: string;
  /** When merchant + storefront quantity (the quantity the service intends to send) last changed. */
  intended_changed_at: string;
  /** inventoryLevelSent of the latest successful inventory submission; null before the first. */
  last_sent_quantity: number | null;
  last_sent_at: string | null;
  /** When the latest failed inventory submission was recorded. */
  last_failed_at: string | null;
  /** 1 while last_sent_quantity differs from merchant + storefront quantity (or nothing was sent). */
  drifting: number;
  status: string;
  channel_status: string;
  listing_url: string;
  buyable: number;
  channel_listing_id: string;
  status_updated_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One attribute value (migration 008); owner_type 'L' = listing productData, 'V' = a variant group. */
export interface ListingAttributesTable {
  id: Generated<number>;
  account_id: number;
  owner_type: string;
  owner_id: number;
  /** product_data, identifiers, logistics or pricing. */
  group_name: string;
  attribute_id: string;
  position: number;
  /** JSON of the value kinds (textValue, numericValue, …) without id and version fields. */
  value: string;
  version_id: string;
  updated_at: string;
  submitted_at: string | null;
}

export interface ListingVariantErrorsTable {
  id: Generated<number>;
  account_id: number;
  variant_id: number;
  submission_type: string;
  position: number;
  /** JSON array of attribute ids. */
  attribute_ids: string;
  severity: string;
  type: string;
  message: string;
  created_at: string;
}

export interface ListingSubmissionsTable {
  id: Generated<number>;
  account_id: number;
  storefront_id: number;
  sku: string;
  type: string;
  content_sent: string;
  content_received: string;
  /** JSON object string → string. */
  metadata: string;
  successful: number;
  /** PUT status: STATUS_SUBMITTED, STATUS_ACCEPTED, STATUS_REJECTED, or '' when never set. */
  status: string;
  /** JSON array of version ids. */
  submitted_attribute_version_ids: string;
  prepared_at: string | null;
  submitted_at: string | null;
  acknowledged_at: string | null;
  changed_at: string | null;
  inventory_level_sent: number | null;
  inventory_successful: number | null;
  inventory_recorded_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Lock rows for replacing a (storefront, type, sku)'s submissions (migration 008). */
export interface ListingSubmissionKeysTable {
  account_id: number;
  storefront_id: number;
  type: string;
  sku: string;
  replaced_at: string;
}

export interface TaxonomyProductTypesTable {
  id: Generated<number>;
  account_id: number;
  storefront_id: number;
  product_type_id: string;
  display_name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface TaxonomyAttributeSpecsTable {
  id: Generated<number>;
  account_id: number;
  storefront_id: number;
  product_type_id: string;
  attribute_spec_id: string;
  spec: string;
  max_unique_items: number | null;
  created_at: string;
  updated_at: string;
}

/** A storefront's own valid values for a select-type spec id (POST /v2/storefront/listing/valid_values). */
export interface StorefrontValidValuesTable {
  account_id: number;
  storefront_id: number;
  spec_id: string;
  /** JSON array of strings. */
  valid_values: string;
  updated_at: string;
}

export interface IngestionSessionsTable {
  id: Generated<number>;
  account_id: number;
  storefront_id: number;
  status: string;
  open_key: number | null;
  expected_num_listings: number;
  actual_num_listings: number | null;
  received_count: number;
  auto_apply: number;
  /** The ingestion plan, JSON text; null until built. */
  plan: string | null;
  /** plan.summary, JSON text (the session list reads it without parsing the plan). */
  plan_summary: string | null;
  error: string | null;
  begun_at: string;
  ended_at: string | null;
  planned_at: string | null;
  applied_at: string | null;
  updated_at: string;
  /** Listings to apply (received_count when the apply started); null until then. */
  apply_total: number | null;
  /** Listings applied so far (progress). */
  apply_done: Generated<number>;
  /** Checkpoint: the id of the last ingestion listing applied (0: none yet). */
  apply_after_id: Generated<number>;
  /** The plan's DUPLICATE_SKU_IN_INGESTION conflicts by external id, JSON text; null until planned. */
  duplicates: string | null;
}

export interface IngestionListingsTable {
  id: Generated<number>;
  account_id: number;
  session_id: number;
  external_id: string;
  body: string;
  received_at: string;
  /** What the apply did with this listing (a PlannedListing, JSON text); null until applied. */
  applied_entry: Generated<string | null>;
}

/** The seller's own product attributes (catalog level; listings keep their per-storefront values). */
export interface ProductAttributesTable {
  account_id: number;
  product_id: number;
  attribute_id: string;
  value: string;
  updated_at: string;
}

/** File store metadata (src/db/file-store); the bytes are chunks below or files under FILE_STORE_DIR. */
export interface StoredFilesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  content_type: string;
  byte_size: number;
  chunk_count: number;
  /** WRITING or READY. */
  state: string;
  /** 'db' or 'dir'. */
  storage: string;
  created_at: string;
}

export interface StoredFileChunksTable {
  file_id: number;
  seq: number;
  data: Buffer;
}

/** A seller's saved column mapping for FullProductData imports. */
export interface ImportTemplatesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  import_type: string;
  /** JSON text {<file header>: <field or attribute id>}. */
  columns: string;
  created_at: string;
  updated_at: string;
}

/** Reports (document 2.9): exports and imports, run by the report job. */
export interface ReportsTable {
  id: Generated<number>;
  account_id: number;
  label: string | null;
  is_export: number;
  report_type: string;
  status: string;
  /** JSON text of the requested options. */
  options: string;
  template_id: number | null;
  integration_id: number | null;
  uploader: string | null;
  /** JSON text array. */
  column_types: string | null;
  total_lines: number;
  lines_processed: number;
  error_lines: number;
  /** Data lines whose outcome is committed; a resumed run starts after them. */
  lines_done: number;
  /** Data lines of an import's file, counted before any is applied. */
  expected_lines: number | null;
  error_message: string | null;
  cancel_requested: number;
  source_file_id: number | null;
  result_file_id: number | null;
  file_name: string | null;
  requested_at: string;
  started_at: string | null;
  completed_at: string | null;
  updated_at: string;
}

export interface ReportLineErrorsTable {
  id: Generated<number>;
  account_id: number;
  report_id: number;
  line: number;
  column_name: string;
  message: string;
}

export interface ImportValidationsTable {
  id: Generated<number>;
  account_id: number;
  definition_id: string;
  import_type: string;
  integration_id: number | null;
  template_id: number | null;
  status: string;
  /** JSON text arrays. */
  supplied_headers: string | null;
  actual_headers: string | null;
  first_rows: string | null;
  lines_done: number;
  error_message: string | null;
  source_file_id: number;
  created_at: string;
  completed_at: string | null;
  updated_at: string;
}

export interface ImportValidationResultsTable {
  id: Generated<number>;
  account_id: number;
  validation_id: number;
  group_name: string;
  row_number: number;
  column_name: string;
  severity: string;
  message: string;
}

/** The seller's vendors (migration 015); name_lower is unique per account. */
export interface VendorsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  name_lower: string;
  address: string | null;
  lead_time_days: number | null;
  payment_window_days: number | null;
  notes: string | null;
  contact: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Inbound shipments (purchase orders); status per document 3.1. */
export interface InboundShipmentsTable {
  id: Generated<number>;
  account_id: number;
  vendor_id: number;
  warehouse_id: number;
  status: string;
  purchase_order_number: string;
  /** Decimal string or null. */
  shipping_cost: string | null;
  /** YYYY-MM-DD or null. */
  expected_delivery_date: string | null;
  tracking: string | null;
  carrier: string | null;
  created_at: string;
  updated_at: string;
  shipped_at: string | null;
  received_at: string | null;
  cancelled_at: string | null;
}

/** One SKU of an inbound shipment: 0 ≤ received_quantity ≤ quantity. */
export interface InboundShipmentLinesTable {
  id: Generated<number>;
  account_id: number;
  shipment_id: number;
  product_id: number;
  quantity: number;
  received_quantity: Generated<number>;
  /** Decimal string or null. */
  unit_item_cost: string | null;
}

export interface InboundReceiptsTable {
  id: Generated<number>;
  account_id: number;
  shipment_id: number;
  received_by: string;
  received_at: string;
}

export interface InboundReceiptLinesTable {
  id: Generated<number>;
  account_id: number;
  receipt_id: number;
  shipment_line_id: number;
  product_id: number;
  quantity: number;
  unit_item_cost: string | null;
  shipping_cost: string;
}

/** Console users (migration 019): sellers of one account (OWNER, STAFF) and operators (no account). */
export interface ConsoleUsersTable {
  id: Generated<number>;
  kind: string;
  account_id: number | null;
  email: string;
  email_key: string;
  role: string | null;
  password_hash: string;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConsoleSessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface ConsoleLoginFailuresTable {
  id: Generated<number>;
  email_key: string;
  ip: string;
  at: string;
}

export interface ConsoleInvitationsTable {
  id: Generated<number>;
  account_id: number;
  email: string;
  email_key: string;
  role: string;
  token_hash: string;
  invited_by: number;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
}

export interface Database {
  console_users: ConsoleUsersTable;
  console_sessions: ConsoleSessionsTable;
  console_login_failures: ConsoleLoginFailuresTable;
  console_invitations: ConsoleInvitationsTable;
  accounts: AccountsTable;
  warehouses: WarehousesTable;
  custom_stores: CustomStoresTable;
  apps: AppsTable;
  callback_deliveries: CallbackDeliveriesTable;
  app_event_subscriptions: AppEventSubscriptionsTable;
  callback_attempts: CallbackAttemptsTable;
  storefront_status_checks: StorefrontStatusChecksTable;
  sandbox_partner_apps: SandboxPartnerAppsTable;
  storefront_inventory_rules: StorefrontInventoryRulesTable;
  storefront_inventory_rule_overrides: StorefrontInventoryRuleOverridesTable;
  sandbox_partner_calls: SandboxPartnerCallsTable;
  installations: InstallationsTable;
  warehouse_mappings: WarehouseMappingsTable;
  auth_codes: AuthCodesTable;
  access_tokens: AccessTokensTable;
  products: ProductsTable;
  inventory: InventoryTable;
  inventory_reservations: InventoryReservationsTable;
  idempotency_keys: IdempotencyKeysTable;
  idempotency_effects: IdempotencyEffectsTable;
  jobs: JobsTable;
  job_attempts: JobAttemptsTable;
  job_schedules: JobSchedulesTable;
  sales_orders: SalesOrdersTable;
  personal_data_erasures: PersonalDataErasuresTable;
  personal_data_audit: PersonalDataAuditTable;
  sales_order_lines: SalesOrderLinesTable;
  sales_order_search_terms: SalesOrderSearchTermsTable;
  sales_order_totals: SalesOrderTotalsTable;
  sales_order_quarter_hours: SalesOrderQuarterHoursTable;
  product_search_terms: ProductSearchTermsTable;
  order_line_routes: OrderLineRoutesTable;
  kit_components: KitComponentsTable;
  order_route_kit_components: OrderRouteKitComponentsTable;
  sales_order_status_confirmations: SalesOrderStatusConfirmationsTable;
  sales_order_packages: SalesOrderPackagesTable;
  sales_order_package_items: SalesOrderPackageItemsTable;
  sales_order_returns: SalesOrderReturnsTable;
  sales_order_return_items: SalesOrderReturnItemsTable;
  fulfillment_orders: FulfillmentOrdersTable;
  fulfillment_cancellation_requests: FulfillmentCancellationRequestsTable;
  fulfillment_cancellation_lines: FulfillmentCancellationLinesTable;
  fulfillment_alerts: FulfillmentAlertsTable;
  storefront_settings: StorefrontSettingsTable;
  listings: ListingsTable;
  listing_variants: ListingVariantsTable;
  listing_attributes: ListingAttributesTable;
  listing_variant_errors: ListingVariantErrorsTable;
  listing_submissions: ListingSubmissionsTable;
  listing_submission_keys: ListingSubmissionKeysTable;
  taxonomy_product_types: TaxonomyProductTypesTable;
  taxonomy_attribute_specs: TaxonomyAttributeSpecsTable;
  storefront_valid_values: StorefrontValidValuesTable;
  ingestion_sessions: IngestionSessionsTable;
  ingestion_listings: IngestionListingsTable;
  product_attributes: ProductAttributesTable;
  stored_files: StoredFilesTable;
  stored_file_chunks: StoredFileChunksTable;
  import_templates: ImportTemplatesTable;
  reports: ReportsTable;
  report_line_errors: ReportLineErrorsTable;
  import_validations: ImportValidationsTable;
  import_validation_results: ImportValidationResultsTable;
  vendors: VendorsTable;
  inbound_shipments: InboundShipmentsTable;
  inbound_shipment_lines: InboundShipmentLinesTable;
  inbound_receipts: InboundReceiptsTable;
  inbound_receipt_lines: InboundReceiptLinesTable;
}
