/** Who is calling: resolved from the access token on every partner request. */
export const APP_KINDS = ['SALES_CHANNEL', 'SHIPPING', 'INVENTORY', 'THIRD_PARTY_LOGISTICS', 'SELLER'] as const;
export type AppKind = (typeof APP_KINDS)[number];

/** The document's ten scope labels (5.4). */
export const SCOPES = [
  'legacy',
  'inventory',
  'inventory:self',
  'sales',
  'sales:orders',
  'sales:orders:self',
  'sales:orders:inventory:self',
  'sales:orders:fulfillment:self',
  'report',
  'listing:self',
] as const;
export type Scope = (typeof SCOPES)[number];

export interface WarehouseMapping {
  warehouseId: number;
  warehouseUniqueId: string;
  /** True when this installation controls the warehouse's stock (INVENTORY or THIRD_PARTY_LOGISTICS). */
  controlsStock: boolean;
}

export interface Principal {
  tokenId: number;
  accountId: number;
  appId: number | null;
  appName: string | null;
  installationId: number | null;
  kind: AppKind;
  scopes: ReadonlySet<Scope>;
  /** Set for sales-channel installations: the storefront the token is bound to (its installation id). */
  storefrontId: number | null;
  /** The storefront's name as the token was authenticated (a new order's channelLabel); null otherwise. */
  storefrontName: string | null;
  /** Set for shipping, inventory and 3PL installations: the integration (its installation id). */
  integrationId: number | null;
  /** The integration's warehouse mappings (empty for other kinds). */
  mappings: readonly WarehouseMapping[];
}

/** Kinds whose mapped warehouses have their stock controlled by the integration (resolutions §3). */
export function kindControlsStock(kind: AppKind): boolean {
  return kind === 'INVENTORY' || kind === 'THIRD_PARTY_LOGISTICS';
}

/**
 * Kinds that ship from their mapped warehouses: a warehouse has at most one of them at a time (resolutions
 * §6, "One shipping/3PL integration per warehouse"), and it owes that warehouse's fulfillment orders.
 */
export function kindFulfilsOrders(kind: AppKind): boolean {
  return kind === 'SHIPPING' || kind === 'THIRD_PARTY_LOGISTICS';
}

export function isIntegrationKind(kind: AppKind): boolean {
  return kind === 'SHIPPING' || kind === 'INVENTORY' || kind === 'THIRD_PARTY_LOGISTICS';
}

export function hasAnyScope(principal: Principal, scopes: readonly Scope[]): boolean {
  return scopes.some((s) => principal.scopes.has(s));
}

/**
 * Warehouses an inventory read may show: null for the whole account, or the installation's own
 * warehouses when the token holds inventory:self and nothing broader (resolutions §2).
 */
export function inventoryWarehouseNarrowing(principal: Principal): number[] | null {
  const broader = principal.scopes.has('inventory') || principal.scopes.has('legacy');
  if (principal.scopes.has('inventory:self') && !broader) return principal.mappings.map((m) => m.warehouseId);
  return null;
}

/** The caller's own name for a warehouse, when it has one. */
export function warehouseUniqueIdFor(principal: Principal, warehouseId: number): string | null {
  return principal.mappings.find((m) => m.warehouseId === warehouseId)?.warehouseUniqueId ?? null;
}

/**
 * The account's seller with every scope and no narrowing: what the operator and the seller's own background
 * work (a report's imports) act as.
 */
export function sellerPrincipalFor(accountId: number): Principal {
  return {
    tokenId: 0,
    accountId,
    appId: null,
    appName: null,
    installationId: null,
    kind: 'SELLER',
    scopes: new Set(SCOPES),
    storefrontId: null,
    storefrontName: null,
    integrationId: null,
    mappings: [],
  };
}
