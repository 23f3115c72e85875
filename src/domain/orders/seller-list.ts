import { Decimal } from 'decimal.js';
import type { Db } from '../../db/tx.js';
import type { OrderStatus } from './model.js';

/**
 * The seller's order list (console, issue 12): the whole account, most recently changed first, keyset on
 * (last_updated_ts, id) descending over the (account_id, last_updated_ts, id) index like GET /v1/salesOrder
 * (ascending there), never OFFSET. Filters narrow the walk; an order updated while the seller pages moves to
 * the top and is not shown twice further down.
 */
export interface SellerOrderFilter {
  statuses: OrderStatus[] | null;
  /** The order's channel key: "s:<storefrontId>" for a storefront, "cs:<customStoreId>" for a custom store. */
  channelKey: string | null;
  /** Inclusive bounds on the order date (ISO). */
  orderedFrom: string | null;
  orderedBefore: string | null;
  /** Orders with a line of this SKU (the catalog SKU or the SKU the channel sent). */
  sku: string | null;
  /** Only these orders (for example those a fulfillment attention check named); null = any. */
  orderIds: number[] | null;
}

export interface SellerOrderKeyset {
  ts: string;
  id: number;
}

export interface SellerOrderSummary {
  orderNumber: string;
  channelOrderId: string;
  channel: string;
  channelLabel: string | null;
  status: string;
  orderTs: string;
  lastUpdatedTs: string;
  lineCount: number;
  units: number;
  /** Σ quantity × unitPrice over lines with a price, as a decimal string; null when no line has one. */
  total: string | null;
}

export async function listSellerOrders(
  db: Db,
  accountId: number,
  filter: SellerOrderFilter,
  before: SellerOrderKeyset | null,
  pageLength: number,
): Promise<{ orders: SellerOrderSummary[]; next: SellerOrderKeyset | null }> {
  if (filter.orderIds !== null && filter.orderIds.length === 0) return { orders: [], next: null };
  let query = db.selectFrom('sales_orders as o').selectAll('o').where('o.account_id', '=', accountId);
  if (filter.statuses !== null) query = query.where('o.status', 'in', filter.statuses);
  if (filter.channelKey !== null) query = query.where('o.channel_key', '=', filter.channelKey);
  if (filter.orderedFrom !== null) query = query.where('o.order_ts', '>=', filter.orderedFrom);
  if (filter.orderedBefore !== null) query = query.where('o.order_ts', '<', filter.orderedBefore);
  if (filter.orderIds !== null) query = query.where('o.id', 'in', filter.orderIds);
  const sku = filter.sku;
  if (sku !== null) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('sales_order_lines as l')
          .select('l.id')
          .where('l.account_id', '=', accountId)
          .whereRef('l.order_id', '=', 'o.id')
          .where((eb) => eb.or([eb('l.sku', '=', sku), eb('l.requested_sku', '=', sku)])),
      ),
    );
  }
  if (before !== null) query = query.where((eb) => eb(eb.refTuple('o.last_updated_ts', 'o.id'), '<', eb.tuple(before.ts, before.id)));
  const rows = await query.orderBy('o.last_updated_ts', 'desc').orderBy('o.id', 'desc').limit(pageLength + 1).execute();
  const page = rows.slice(0, pageLength);
  const last = page[page.length - 1];
  const next = rows.length > pageLength && last ? { ts: last.last_updated_ts, id: last.id } : null;
  const lines =
    page.length === 0
      ? []
      : await db
          .selectFrom('sales_order_lines')
          .select(['order_id', 'quantity', 'unit_price'])
          .where('account_id', '=', accountId)
          .where('order_id', 'in', page.map((o) => o.id))
          .execute();
  const totals = new Map<number, { lineCount: number; units: number; total: Decimal | null }>();
  for (const l of lines) {
    const t = totals.get(l.order_id) ?? { lineCount: 0, units: 0, total: null };
    t.lineCount += 1;
    t.units += l.quantity;
    if (l.unit_price !== null) t.total = (t.total ?? new Decimal(0)).plus(new Decimal(l.unit_price).times(l.quantity));
    totals.set(l.order_id, t);
  }
  const orders = page.map((o) => {
    const t = totals.get(o.id);
    return {
      orderNumber: String(o.id),
      channelOrderId: o.channel_order_id,
      channel: o.channel,
      channelLabel: o.channel_label,
      status: o.status,
      orderTs: o.order_ts,
      lastUpdatedTs: o.last_updated_ts,
      lineCount: t?.lineCount ?? 0,
      units: t?.units ?? 0,
      total: t?.total ? t.total.toFixed() : null,
    };
  });
  return { orders, next };
}
