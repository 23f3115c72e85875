import type { Db, Tx } from '../../db/tx.js';
import { argList, compiledBySize, listArgsOf, readTogether, selectRows } from '../../db/fast-paths.js';
import { warehouseUniqueIdFor, type Principal } from '../accounts/principal.js';
import type { Address } from '../orders/model.js';
import type { FulfillmentOrderRow } from './access.js';
import { derivedStatus, ORDER_CURRENCY, type FulfillmentOrderStatus } from './model.js';
import { accountFilterById } from '../../db/tenancy.js';
import { moneyAmountText } from '../../lib/decimal.js';
import { groupBy } from '../../lib/group-by.js';
import type { DbHandle } from '../../db/connect.js';

/** The v2 fulfillment order (document 2.18), with lines derived from the routes (units still owed). */

export interface Money {
  amount: string;
  currencyCode: string;
}

export interface FulfillmentLineV2 {
  lineItemId: string;
  sku: string;
  title: string;
  quantity: number;
  shippedQuantity: number;
  cancelledQuantity: number;
  unitPrice: Money;
  tax: Money;
}

export interface ShipToV2 {
  name: string;
  company: string;
  line1: string;
  line2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  phone: string;
  email: string;
}

export interface AlertV2 {
  fulfillmentOrderId: string;
  type: string;
  message: string;
  lineItemId: string;
}

export interface FulfillmentOrderV2 {
  fulfillmentOrderId: string;
  orderNumber: string;
  externalOrderId: string;
  status: FulfillmentOrderStatus;
  warehouseUniqueId: string;
  orderedTs: string;
  assignedTs: string;
  lastUpdatedTs: string;
  /** Never populated: null, as the production gateway writes an unset Timestamp (resolutions §7). */
  shipByTs: null;
  /** Absent when no address was captured (document 2.18). */
  shipTo?: ShipToV2;
  requestedServiceLevel: string;
  buyerName: string;
  giftMessage: string;
  lines: FulfillmentLineV2[];
  openAlerts: AlertV2[];
  shippingPrice: Money;
  shippingTax: Money;
  discount: Money;
  totalPayment: Money;
}

const ZERO_AMOUNT = moneyAmountText('0');
// Most amounts on a page are zero (taxes, discounts): those skip the decimal parse.
const money = (amount: string | null | undefined): Money => ({
  amount: amount === null || amount === undefined || amount === '0' ? ZERO_AMOUNT : moneyAmountText(amount),
  currencyCode: ORDER_CURRENCY,
});

function shipToOf(text: string | null): ShipToV2 | undefined {
  if (text === null) return undefined;
  const a = JSON.parse(text) as Address;
  return {
    name: a.name ?? '',
    company: a.company ?? '',
    line1: a.addressLine1 ?? '',
    line2: a.addressLine2 ?? '',
    city: a.city ?? '',
    region: a.state ?? '',
    postalCode: a.postalCode ?? '',
    country: a.countryCode ?? '',
    phone: a.phone ?? '',
    email: a.email ?? '',
  };
}

/** The columns of a fulfillment order its view shows. */
export const FULFILLMENT_ORDER_VIEW_COLUMNS = ['id', 'order_id', 'warehouse_id', 'status', 'external_order_id', 'assigned_ts', 'last_updated_ts'] as const;
export type FulfillmentOrderViewRow = Pick<FulfillmentOrderRow, (typeof FULFILLMENT_ORDER_VIEW_COLUMNS)[number]>;

// The view's three reads, compiled once per IN-list size (src/db/compiled.ts): a page of 50 needs no query built.
const MAX_CACHED_PAGE = 101;

const ordersOfView = compiledBySize(
  (db, arg, n) =>
    db
      .selectFrom('sales_orders')
      .select(['id', 'order_ts', 'customer_name', 'requested_service_level', 'standard_service_level', 'shipping_address', 'accounting', 'personal_data_redacted_ts'])
      .where(accountFilterById(arg<number>('accountId')))
      .where('id', 'in', argList<number>(arg, 'o', n)),
  MAX_CACHED_PAGE,
);

const routesOfView = compiledBySize(
  (db, arg, n) =>
    db
      .selectFrom('order_line_routes as r')
      .innerJoin('sales_order_lines as l', 'l.id', 'r.line_id')
      .leftJoin('products as p', 'p.id', 'r.product_id')
      .select([
        'r.order_id',
        'r.warehouse_id',
        'r.line_id',
        'r.reserved_quantity',
        'r.backorder_quantity',
        'r.shipped_quantity',
        'r.cancelled_quantity',
        'l.position',
        'l.sku',
        'l.requested_sku',
        'l.requested_title',
        'l.unit_price',
        'p.title as product_title',
      ])
      .where('r.account_id', '=', arg<number>('accountId'))
      .where('l.account_id', '=', arg<number>('accountId'))
      .where('r.order_id', 'in', argList<number>(arg, 'o', n)),
  MAX_CACHED_PAGE,
);

const openAlertsOfView = compiledBySize(
  (db, arg, n) =>
    db
      .selectFrom('fulfillment_alerts')
      .select(['id', 'fulfillment_order_id', 'type', 'message', 'line_id'])
      .where('account_id', '=', arg<number>('accountId'))
      .where('fulfillment_order_id', 'in', argList<number>(arg, 'f', n))
      .where('status', '=', 'OPEN')
      // "alerts the caller has open on this order" (2.18): the service's own alerts are for the seller.
      .where('raised_by_installation_id', '=', arg<number>('installationId')),
  MAX_CACHED_PAGE,
);

/** `handle` (the handle of `db`) lets the page's reads build their rows faster on SQLite (src/db/raw-rows.ts). */
export async function fulfillmentOrderViews(db: Db | Tx, principal: Principal, rows: readonly FulfillmentOrderViewRow[], handle?: DbHandle): Promise<FulfillmentOrderV2[]> {
  if (rows.length === 0) return [];
  const accountId = principal.accountId;
  const orderIds = [...new Set(rows.map((r) => r.order_id))];
  const orderArgs = { accountId, ...listArgsOf('o', orderIds) };
  // One round trip for the three on one PostgreSQL connection (listNeedToShip's, or a transaction's).
  const [orders, unsortedRoutes, unsortedAlerts] = await readTogether(
    db,
    [
      ordersOfView.bound(db, orderIds.length, orderArgs),
      routesOfView.bound(db, orderIds.length, orderArgs),
      openAlertsOfView.bound(db, rows.length, { accountId, installationId: principal.integrationId ?? -1, ...listArgsOf('f', rows.map((r) => r.id)) }),
    ] as const,
    (query) => selectRows(db, handle, query),
  );
  // Sorted here (lines by position, then line id): an ORDER BY cost SQLite a temporary B-tree per page.
  const routes = unsortedRoutes.sort((a, b) => a.position - b.position || a.line_id - b.line_id);
  const alerts = unsortedAlerts.sort((a, b) => a.id - b.id);
  const routesHere = groupBy(routes, (r) => `${r.order_id}:${r.warehouse_id}`);
  const alertsOf = groupBy(alerts, (a) => a.fulfillment_order_id);
  const orderById = new Map(orders.map((o) => [o.id, o]));
  return rows.map((fo) => {
    const order = orderById.get(fo.order_id);
    const here = routesHere.get(`${fo.order_id}:${fo.warehouse_id}`) ?? [];
    const totals = here.reduce(
      (t, r) => ({
        owed: t.owed + r.reserved_quantity + r.backorder_quantity,
        shipped: t.shipped + r.shipped_quantity,
        cancelled: t.cancelled + r.cancelled_quantity,
      }),
      { owed: 0, shipped: 0, cancelled: 0 },
    );
    const accounting = order?.accounting ? (JSON.parse(order.accounting) as Record<string, string | null>) : {};
    // Redacted under the personal-data retention (resolutions §10): shipTo absent, though the country is kept.
    const shipTo = order?.personal_data_redacted_ts ? undefined : shipToOf(order?.shipping_address ?? null);
    // "empty when the channel named none": a level the service could not standardize is no level.
    const level = order && !(order.standard_service_level === 'Unknown' && order.requested_service_level === null) ? order.standard_service_level : '';
    return {
      fulfillmentOrderId: String(fo.id),
      orderNumber: String(fo.order_id),
      externalOrderId: fo.external_order_id ?? '',
      status: derivedStatus(fo.status, totals),
      warehouseUniqueId: warehouseUniqueIdFor(principal, fo.warehouse_id) ?? '',
      orderedTs: order?.order_ts ?? fo.assigned_ts,
      assignedTs: fo.assigned_ts,
      lastUpdatedTs: fo.last_updated_ts,
      shipByTs: null,
      ...(shipTo ? { shipTo } : {}),
      requestedServiceLevel: level,
      buyerName: order?.customer_name ?? '',
      giftMessage: '',
      // A rejected or withdrawn order is no longer the caller's work: nothing is owed to it.
      lines:
        fo.status === 'REJECTED' || fo.status === 'WITHDRAWN'
          ? []
          : here
              .filter((r) => r.reserved_quantity + r.backorder_quantity > 0)
              .map((r) => ({
                lineItemId: String(r.line_id),
                sku: r.sku ?? r.requested_sku,
                title: r.product_title ?? r.requested_title ?? '',
                quantity: r.reserved_quantity + r.backorder_quantity,
                shippedQuantity: 0,
                cancelledQuantity: 0,
                unitPrice: money(r.unit_price),
                tax: money('0'),
              })),
      openAlerts: (alertsOf.get(fo.id) ?? []).map((a) => ({ fulfillmentOrderId: String(fo.id), type: a.type, message: a.message, lineItemId: a.line_id === null ? '' : String(a.line_id) })),
      shippingPrice: money(accounting.shippingPrice),
      shippingTax: money('0'),
      discount: money(accounting.totalDiscount),
      totalPayment: money(accounting.payment),
    };
  });
}
