import type { Db } from '../../db/tx.js';
import { packagesByOrder } from '../orders/packages.js';
import { packagesByTrackingNumber, type ShippedPackage } from './shipped-packages.js';

/**
 * GET /v2/storefront/orders/shipped (document 2.16, 4.7; resolutions §4): the storefront's own orders whose
 * internal status is SHIPPED or PARTIALLY_SHIPPED (a filter the caller cannot change), oldest
 * lastUpdatedTs first with the id as tie-breaker. salesChannelStatus is the last status the channel
 * confirmed through POST /v1/salesOrder/{orderNumber}/confirmStatus ("" when it never confirmed one).
 * Channel-fulfilled orders (fba or channelWillFulfill) are left out unless asked for. GET
 * /v2/storefront/order answers one order, of any status, in the same view (shippedOrderViews).
 */

export const SHIPPED_STATUSES = ['SHIPPED', 'PARTIALLY_SHIPPED'] as const;

export interface ShippedOrdersFilter {
  storefrontId: number;
  lastUpdatedTs: Date | null;
  /** Only orders whose last confirmed channel status is one of these; empty = no filter. */
  salesChannelStatuses: string[];
  includeChannelFulfilled: boolean;
  after: { updatedAt: string; id: number } | null;
  pageSize: number;
}

export interface ShippedOrderV2 {
  channelOrderId: string;
  status: string;
  salesChannelStatus: string;
  lastUpdatedTs: string;
  orderNumber: string;
  marketplaceId: string;
  standardServiceLevel: string;
  lineItems: { lineItemId: string; channelLineItemId: string; sku: string; quantity: string; channelSku: string }[];
  /** One entry per tracking number (2.16). */
  packages: ShippedPackage[];
}

export interface ShippedOrdersPage {
  orders: ShippedOrderV2[];
  next: { updatedAt: string; id: number } | null;
}

/**
 * The storefront's orders with what the ShippedOrder view needs (salesChannelStatus is the last status the
 * channel confirmed). The one query behind both the feed and GET /v2/storefront/order.
 */
export function shippedOrderRows(db: Db, accountId: number, storefrontId: number) {
  return db
    .selectFrom('sales_orders as o')
    .select((eb) => [
      'o.id',
      'o.channel_order_id',
      'o.status',
      'o.last_updated_ts',
      'o.marketplace_id',
      'o.standard_service_level',
      eb
        .selectFrom('sales_order_status_confirmations as c')
        .select('c.status')
        .where('c.account_id', '=', accountId)
        .whereRef('c.order_id', '=', 'o.id')
        .orderBy('c.id', 'desc')
        .limit(1)
        .as('sales_channel_status'),
    ])
    .where('o.account_id', '=', accountId)
    .where('o.storefront_id', '=', storefrontId);
}

export type ShippedOrderRow = Awaited<ReturnType<ReturnType<typeof shippedOrderRows>['execute']>>[number];

export async function listShippedOrders(db: Db, accountId: number, filter: ShippedOrdersFilter): Promise<ShippedOrdersPage> {
  let query = shippedOrderRows(db, accountId, filter.storefrontId).where('o.status', 'in', [...SHIPPED_STATUSES]);
  if (filter.lastUpdatedTs) query = query.where('o.last_updated_ts', '>=', filter.lastUpdatedTs.toISOString());
  if (!filter.includeChannelFulfilled) query = query.where('o.fba', '=', 0).where('o.channel_will_fulfill', '=', 0);
  if (filter.salesChannelStatuses.length > 0) {
    const statuses = filter.salesChannelStatuses;
    query = query.where((eb) =>
      eb(
        eb
          .selectFrom('sales_order_status_confirmations as c')
          .select('c.status')
          .where('c.account_id', '=', accountId)
          .whereRef('c.order_id', '=', 'o.id')
          .orderBy('c.id', 'desc')
          .limit(1),
        'in',
        statuses,
      ),
    );
  }
  const after = filter.after;
  if (after) query = query.where((eb) => eb(eb.refTuple('o.last_updated_ts', 'o.id'), '>', eb.tuple(after.updatedAt, after.id)));
  const rows = await query.orderBy('o.last_updated_ts').orderBy('o.id').limit(filter.pageSize + 1).execute();
  const page = rows.slice(0, filter.pageSize);
  const last = page[page.length - 1];
  const next = rows.length > filter.pageSize && last ? { updatedAt: last.last_updated_ts, id: Number(last.id) } : null;
  return { orders: await shippedOrderViews(db, accountId, page), next };
}

/** The ShippedOrder view (2.16) of these orders, in their order: line items and one package per tracking number. */
export async function shippedOrderViews(db: Db, accountId: number, page: readonly ShippedOrderRow[]): Promise<ShippedOrderV2[]> {
  if (page.length === 0) return [];
  const ids = page.map((o) => Number(o.id));
  const [lines, packagesOf] = await Promise.all([
    db
      .selectFrom('sales_order_lines')
      .select(['id', 'order_id', 'channel_line_item_id', 'sku', 'requested_sku', 'quantity'])
      .where('account_id', '=', accountId)
      .where('order_id', 'in', ids)
      .orderBy('order_id')
      .orderBy('position')
      .execute(),
    packagesByOrder(db, accountId, ids, null),
  ]);
  const linesByOrder = new Map<number, ShippedOrderV2['lineItems']>();
  for (const l of lines) {
    const list = linesByOrder.get(Number(l.order_id)) ?? [];
    list.push({
      lineItemId: String(l.id),
      channelLineItemId: l.channel_line_item_id ?? '',
      sku: l.sku ?? '',
      quantity: String(l.quantity),
      channelSku: l.requested_sku,
    });
    linesByOrder.set(Number(l.order_id), list);
  }
  return page.map((o): ShippedOrderV2 => {
    const id = Number(o.id);
    return {
      channelOrderId: o.channel_order_id,
      status: o.status,
      salesChannelStatus: o.sales_channel_status ?? '',
      lastUpdatedTs: o.last_updated_ts,
      orderNumber: String(id),
      marketplaceId: o.marketplace_id ?? '',
      standardServiceLevel: o.standard_service_level,
      lineItems: linesByOrder.get(id) ?? [],
      packages: packagesByTrackingNumber(packagesOf.get(id) ?? []),
    };
  });
}
