import type { Selectable } from 'kysely';
import type { Db } from '../../db/tx.js';
import type { OrderLineRoutesTable, SalesOrderLinesTable, SalesOrdersTable } from '../../db/schema.js';
import { isIntegrationKind, warehouseUniqueIdFor, type Principal } from '../accounts/principal.js';
import { decimalOutput } from '../../lib/decimal.js';
import { ACCOUNTING_FIELDS, type Address } from './model.js';
import { orderRefundTotal } from './refund-totals.js';
import type { OrderScope } from './visibility.js';
import { returnOrdersByOrder, returnOrdersFor, type ReturnOrderV1 } from './returns-view.js';
import { packagesByOrder, packageV1, type PackageV1 } from './packages.js';
import { kitComponentsByRoute, type KitComponentsV1 } from './kit-view.js';
import { accountFilterById } from '../../db/tenancy.js';
import type { DbHandle } from '../../db/connect.js';
import { argList, compiledBySize, listArgsOf, selectRows } from '../../db/fast-paths.js';
import { groupBy } from '../../lib/group-by.js';

/** The v1 sales order shape (document 2.10), assembled from the order, line and route rows. */

export type OrderRow = Selectable<SalesOrdersTable>;
/**
 * The columns of an order and of a line that the view shows (a page reads ~100 orders and ~200 lines, and
 * every column read is a value per row that SQLite hands to JavaScript).
 */
export const ORDER_VIEW_COLUMNS = [
  'id',
  'channel',
  'channel_label',
  'channel_order_id',
  'channel_order_reference_number',
  'status',
  'cancellation_reason',
  'customer_notes',
  'marketplace_id',
  'customer_name',
  'customer_email',
  'order_ts',
  'requested_service_level',
  'standard_service_level',
  'accounting',
  'shipping_address',
  'billing_address',
  'fba',
  'channel_will_fulfill',
  'prime',
  'business_order',
  'accepted_ts',
  'last_updated_ts',
  'personal_data_redacted_ts',
] as const satisfies readonly (keyof OrderRow)[];
export type OrderViewRow = Pick<OrderRow, (typeof ORDER_VIEW_COLUMNS)[number]>;
const LINE_VIEW_COLUMNS = [
  'id',
  'order_id',
  'position',
  'product_id',
  'channel_line_item_id',
  'status',
  'requested_title',
  'title',
  'requested_sku',
  'sku',
  'quantity',
  'cancel_quantity',
  'shipped_quantity',
  'unit_price',
  'cost',
  'total_weight',
  'package_dimensions',
  'hazmat',
  'refund',
  'refund_reason',
  'gift_wrap_message',
  'gift_wrap_level',
  'earliest_ship_by',
  'latest_ship_by',
  'earliest_deliver_by',
  'latest_deliver_by',
  'requested_service_level',
] as const satisfies readonly (keyof Selectable<SalesOrderLinesTable>)[];
type LineRow = Pick<Selectable<SalesOrderLinesTable>, (typeof LINE_VIEW_COLUMNS)[number]>;
/** The columns of a route the view uses. */
const ROUTE_VIEW_COLUMNS = ['id', 'line_id', 'warehouse_id', 'quantity', 'assembled_quantity', 'cancelled_quantity', 'shipped_quantity'] as const;
type RouteRow = Pick<Selectable<OrderLineRoutesTable>, (typeof ROUTE_VIEW_COLUMNS)[number]>;
/** A route as the view takes it: a new order's routes are shown as written, before their ids are known. */
type RouteViewRow = Omit<RouteRow, 'id'> & { id: number | null };

export interface RoutingInfoV1 {
  warehouseId: number;
  /** Only for integration tokens (document 2.10); absent otherwise. */
  warehouseUniqueId?: string | null;
  quantity: number;
  assembledQuantity: number | null;
  kitComponents: { SKU: string; componentQuantity: number }[] | null;
}

export interface LineItemV1 {
  lineItemId: string;
  channelLineItemId: string | null;
  status: string;
  requestedTitle: string | null;
  requestedSku: string;
  sku: string | null;
  SKU: string | null;
  primary_image: { url: string; hash: string } | null;
  mpn: string | null;
  standard_product_id: string | null;
  title: string | null;
  quantity: number;
  routing_info: RoutingInfoV1[];
  cancelQuantity: number;
  shippedQuantity: number;
  unitPrice: number | null;
  cost: number | null;
  totalWeight: number | null;
  packageDimensions: unknown;
  hazmat: { flagged: boolean } | null;
  refund: number | null;
  refundReason: string | null;
  giftWrapMessage: string | null;
  giftWrapLevel: string | null;
  earliestShipBy: string | null;
  latestShipBy: string | null;
  earliestDeliverBy: string | null;
  latestDeliverBy: string | null;
  requestedServiceLevel: string | null;
}

export interface SalesOrderV1 {
  orderNumber: string;
  status: string;
  cancellationReason: string | null;
  channel: string;
  channelLabel: string | null;
  channelOrderId: string;
  channelOrderReferenceNumber: string | null;
  customer_notes: string | null;
  marketplaceId: string | null;
  customerName: string | null;
  customerEmail: string | null;
  orderTs: string;
  lastUpdatedTs: string;
  acceptedTs: string | null;
  requestedServiceLevel: string | null;
  standardServiceLevel: string;
  shipBy: string | null;
  accounting: Record<string, number | null> | null;
  shippingAddress: Address | null;
  billingAddress: Address | null;
  packages: PackageV1[];
  products: LineItemV1[];
  returnOrders: ReturnOrderV1[];
  fba: boolean;
  channelWillFulfill: boolean;
  prime: boolean;
  businessOrder: boolean;
  /** When the buyer's personal data was redacted (resolutions §10); null while it is kept. */
  personalDataRedactedTs: string | null;
}

function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/**
 * accounting as stored, except refund: the order's refund total, order-level plus every line's refund
 * (resolutions §6, third review), so the order shows what was refunded wherever it was recorded. `lineRefunds`
 * are all the order's lines, also in a narrowed view. An order without accounting that has a line refund
 * shows an accounting object with only refund set.
 */
function accountingView(text: string | null, lineRefunds: readonly (string | null)[]): Record<string, number | null> | null {
  const stored = parseJson<Record<string, string>>(text);
  const refund = orderRefundTotal(stored?.refund ?? null, lineRefunds);
  if (stored === null && refund === null) return null;
  return Object.fromEntries(ACCOUNTING_FIELDS.map((f) => [f, decimalOutput(f === 'refund' ? refund : (stored?.[f] ?? null))]));
}

export interface ProductInfo {
  title: string | null;
  standardProductId: string | null;
}

function lineView(
  principal: Principal,
  order: OrderViewRow,
  line: LineRow,
  routes: RouteViewRow[],
  product: ProductInfo | undefined,
  narrowed: boolean,
  kitComponents: Map<number, KitComponentsV1>,
): LineItemV1 {
  const showUniqueId = isIntegrationKind(principal.kind);
  const sum = (pick: (r: RouteViewRow) => number) => routes.reduce((n, r) => n + pick(r), 0);
  return {
    lineItemId: String(line.id),
    channelLineItemId: line.channel_line_item_id,
    status: line.status,
    requestedTitle: line.requested_title,
    requestedSku: line.requested_sku,
    sku: line.sku,
    SKU: line.sku,
    primary_image: null,
    mpn: null,
    standard_product_id: product?.standardProductId ?? null,
    // The channel's own title for the line, else the catalog's (resolutions §7; blank when neither).
    title: line.title ?? product?.title ?? null,
    // A narrowed view shows what is routed to the visible warehouses (resolutions §2).
    quantity: narrowed ? sum((r) => r.quantity) : line.quantity,
    routing_info: routes
      .filter((r) => r.quantity > 0)
      .map((r) => ({
        warehouseId: r.warehouse_id,
        ...(showUniqueId ? { warehouseUniqueId: warehouseUniqueIdFor(principal, r.warehouse_id) } : {}),
        quantity: r.quantity,
        assembledQuantity: r.assembled_quantity,
        kitComponents: (r.id === null ? undefined : kitComponents.get(r.id)) ?? null,
      })),
    cancelQuantity: narrowed ? sum((r) => r.cancelled_quantity) : line.cancel_quantity,
    shippedQuantity: narrowed ? sum((r) => r.shipped_quantity) : line.shipped_quantity,
    unitPrice: decimalOutput(line.unit_price),
    cost: decimalOutput(line.cost),
    totalWeight: decimalOutput(line.total_weight),
    packageDimensions: parseJson(line.package_dimensions),
    hazmat: parseJson(line.hazmat),
    refund: decimalOutput(line.refund),
    refundReason: line.refund_reason,
    giftWrapMessage: line.gift_wrap_message,
    giftWrapLevel: line.gift_wrap_level,
    earliestShipBy: line.earliest_ship_by,
    latestShipBy: line.latest_ship_by,
    earliestDeliverBy: line.earliest_deliver_by,
    latestDeliverBy: line.latest_deliver_by,
    // "for the line, else for the order" (document 2.10).
    requestedServiceLevel: line.requested_service_level ?? order.requested_service_level,
  };
}

/** shipBy (read-only): the earliest of the shown lines' latest ship-by times. */
function shipByOf(lines: LineItemV1[]): string | null {
  const times = lines.map((l) => l.latestShipBy).filter((t): t is string => t !== null);
  return times.length === 0 ? null : times.reduce((a, b) => (a < b ? a : b));
}

/** What an order view is built from, for a set of orders. */
interface OrderParts {
  lines: LineRow[];
  routes: RouteViewRow[];
  packagesOf: Awaited<ReturnType<typeof packagesByOrder>>;
  returnsOf: Awaited<ReturnType<typeof returnOrdersByOrder>>;
  kitComponents: Map<number, KitComponentsV1>;
  productById: ReadonlyMap<number, ProductInfo>;
}

// Every order view reads it (compiled once per IN-list size: src/db/compiled.ts).
const productsById = compiledBySize<{ id: number; title: string | null; standard_product_id: string | null }, Record<string, unknown>>(
  (db, arg, n) =>
    db
      .selectFrom('products')
      .select(['id', 'title', 'standard_product_id'])
      .where(accountFilterById(arg<number>('accountId')))
      .where('id', 'in', argList<number>(arg, 'p', n)),
  100,
);

/** Catalog title and identifier of the lines' products. */
async function productInfo(db: Db, accountId: number, lines: readonly LineRow[]): Promise<Map<number, ProductInfo>> {
  const productIds = [...new Set(lines.map((l) => l.product_id).filter((id): id is number => id !== null))];
  const products = productIds.length === 0 ? [] : await productsById.all(db, productIds.length, { accountId, ...listArgsOf('p', productIds) });
  return new Map(products.map((p) => [p.id, { title: p.title, standardProductId: p.standard_product_id }]));
}

// A page's lines and (unnarrowed) routes, compiled once per number of orders (src/db/compiled.ts).
const MAX_CACHED_PAGE = 101;

const linesOfOrders = compiledBySize(
  (db, arg, n) =>
    db
      .selectFrom('sales_order_lines')
      .select(LINE_VIEW_COLUMNS)
      .where('account_id', '=', arg<number>('accountId'))
      .where('order_id', 'in', argList<number>(arg, 'o', n))
      .orderBy('order_id')
      .orderBy('position'),
  MAX_CACHED_PAGE,
);

const routesOfOrders = compiledBySize(
  (db, arg, n) =>
    db
      .selectFrom('order_line_routes')
      .select(ROUTE_VIEW_COLUMNS)
      .where('account_id', '=', arg<number>('accountId'))
      .where('order_id', 'in', argList<number>(arg, 'o', n)),
  MAX_CACHED_PAGE,
);

async function loadOrderParts(db: Db, accountId: number, orders: readonly OrderViewRow[], scope: OrderScope, handle?: DbHandle): Promise<OrderParts> {
  const ids = orders.map((o) => o.id);
  const orderArgs = { accountId, ...listArgsOf('o', ids) };
  const visible = scope.warehouseIds;
  const routeQuery =
    visible === null
      ? routesOfOrders.bound(db, ids.length, orderArgs)
      : db
          .selectFrom('order_line_routes')
          .select(ROUTE_VIEW_COLUMNS)
          .where('account_id', '=', accountId)
          .where('order_id', 'in', ids)
          .where((eb) => (visible.length > 0 ? eb('warehouse_id', 'in', visible) : eb.lit(false)));
  const [lines, routes, packagesOf] = await Promise.all([
    selectRows(db, handle, linesOfOrders.bound(db, ids.length, orderArgs)),
    // Sorted here, not in SQL: an ORDER BY (line_id, warehouse_id) lets SQLite pick the account-led
    // (account_id, line_id, warehouse_id) index to skip a sort and walk the whole account (bench/RESULTS.md).
    selectRows(db, handle, routeQuery).then((rows) => rows.sort((a, b) => a.line_id - b.line_id || a.warehouse_id - b.warehouse_id)),
    // A narrowed view shows only the packages shipped from the visible warehouses.
    packagesByOrder(db, accountId, ids, scope.warehouseIds),
  ]);
  const returnsOf = await returnOrdersByOrder(db, accountId, ids);
  const kitComponents = await kitComponentsByRoute(db, accountId, routes.filter((r) => r.assembled_quantity !== null).map((r) => r.id));
  return { lines, routes, packagesOf, returnsOf, kitComponents, productById: await productInfo(db, accountId, lines) };
}

/**
 * Orders in the given order, each with its lines and routes as the scope lets the caller see them. `handle`
 * (the handle of `db`) lets the wide line and route reads build their rows faster on SQLite (src/db/raw-rows.ts).
 */
export async function orderViews(db: Db, principal: Principal, orders: readonly OrderViewRow[], scope: OrderScope, handle?: DbHandle): Promise<SalesOrderV1[]> {
  if (orders.length === 0) return [];
  return assembleOrderViews(principal, orders, await loadOrderParts(db, principal.accountId, orders, scope, handle), scope);
}

/**
 * The view of an order created in this transaction, from the rows just written (its lines, and its routes
 * as routing wrote them, without their ids: a kit-less new order's view needs none) and its products' catalog
 * facts as the SKU lookup found them: nothing else exists for it yet (no packages, returns or kit
 * components), so nothing is read.
 */
export function newOrderView(
  principal: Principal,
  order: OrderViewRow,
  lines: LineRow[],
  routes: readonly Omit<RouteRow, 'id'>[],
  productById: ReadonlyMap<number, ProductInfo>,
): SalesOrderV1 {
  const parts: OrderParts = {
    lines: [...lines].sort((a, b) => a.position - b.position),
    routes: routes.map((r) => ({ ...r, id: null })).sort((a, b) => a.line_id - b.line_id || a.warehouse_id - b.warehouse_id),
    packagesOf: new Map(),
    returnsOf: new Map(),
    kitComponents: new Map(),
    productById,
  };
  return assembleOrderViews(principal, [order], parts, { storefrontId: null, warehouseIds: null })[0]!;
}

function assembleOrderViews(principal: Principal, orders: readonly OrderViewRow[], parts: OrderParts, scope: OrderScope): SalesOrderV1[] {
  const { lines, routes, packagesOf, returnsOf, kitComponents, productById } = parts;
  const routesByLine = groupBy(routes, (r) => r.line_id);
  const linesByOrder = groupBy(lines, (l) => l.order_id);

  const narrowed = scope.warehouseIds !== null;
  return orders.map((o) => {
    const allLines = linesByOrder.get(o.id) ?? [];
    const orderLines = allLines
      // A narrowed view keeps only the lines routed to the visible warehouses.
      .filter((l) => !narrowed || (routesByLine.get(l.id) ?? []).length > 0)
      .map((l) => lineView(principal, o, l, routesByLine.get(l.id) ?? [], l.product_id === null ? undefined : productById.get(l.product_id), narrowed, kitComponents));
    return {
      orderNumber: String(o.id),
      status: o.status,
      cancellationReason: o.cancellation_reason,
      channel: o.channel,
      channelLabel: o.channel_label,
      channelOrderId: o.channel_order_id,
      channelOrderReferenceNumber: o.channel_order_reference_number,
      customer_notes: o.customer_notes,
      marketplaceId: o.marketplace_id,
      customerName: o.customer_name,
      customerEmail: o.customer_email,
      orderTs: o.order_ts,
      lastUpdatedTs: o.last_updated_ts,
      acceptedTs: o.accepted_ts,
      requestedServiceLevel: o.requested_service_level,
      standardServiceLevel: o.standard_service_level,
      shipBy: shipByOf(orderLines),
      accounting: accountingView(o.accounting, allLines.map((l) => l.refund)),
      shippingAddress: parseJson<Address>(o.shipping_address),
      billingAddress: parseJson<Address>(o.billing_address),
      packages: (packagesOf.get(o.id) ?? []).map(packageV1),
      products: orderLines,
      returnOrders: returnOrdersFor(returnsOf.get(o.id) ?? [], narrowed ? new Set(orderLines.map((l) => Number(l.lineItemId))) : null),
      fba: o.fba === 1,
      channelWillFulfill: o.channel_will_fulfill === 1,
      prime: o.prime === 1,
      businessOrder: o.business_order === 1,
      personalDataRedactedTs: o.personal_data_redacted_ts,
    };
  });
}
