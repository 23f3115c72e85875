import { holdStockClosure } from '../inventory/stock-locks.js';
import type { Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { findCustomStore } from '../accounts/custom-stores.js';
import { accountWarehousesAhead } from '../accounts/warehouses.js';
import { invalidArgument, invalidField, permissionDenied } from '../errors.js';
import { standardServiceLevelFor } from './model.js';
import { validateCreateInput, type CreateOrderInput } from './order-input.js';
import { candidateWarehouses, defaultWarehouse } from './routing.js';
import { routeNewOrderLines } from './route-new-order.js';
import { newOrderView, orderViews, type SalesOrderV1 } from './view.js';
import { requestedSkusAhead } from './sku-resolution.js';
import { availableBySkuAhead } from '../inventory/reserved-stock.js';
import { insertNewLines, insertNewOrder, type LineInsert, type OrderInsert } from './new-order-rows.js';
import type { FulfillmentPort } from './fulfillment-port.js';
import { scheduleUnpaidExpiry } from './expiry.js';
import { keepUnroutedUnits } from './unroutable-lines.js';
import { countOrderInDayFigures } from './order-day-figures.js';
import { orderSearchWrites, orderSortTotal } from './order-search.js';

/**
 * POST /v1/salesOrder (resolutions §3): a storefront's or a seller's order, idempotent on channelOrderId
 * per channel (a repeat returns the stored order unchanged). Its lines reserve and route stock in the
 * same transaction, so an order exists only with its reservations.
 */

export type { CreateOrderInput } from './order-input.js';

export interface CreateOrderResult {
  created: boolean;
  order: SalesOrderV1;
}

/**
 * Who sends the order: a storefront (channel from its installation), or a seller, into one of its custom
 * stores (integrationId) or under a channel named in the body.
 */
async function channelOf(tx: Tx, principal: Principal, input: CreateOrderInput) {
  if (principal.storefrontId !== null) {
    if (input.integrationId !== undefined && input.integrationId !== null) {
      throw invalidField('integrationId', 'names a custom store: only seller tokens create orders in one (a storefront token creates its own)');
    }
    return {
      storefrontId: principal.storefrontId,
      channelKey: `s:${principal.storefrontId}`,
      channel: principal.appName ?? 'storefront',
      channelLabel: principal.storefrontName,
    };
  }
  if (principal.kind !== 'SELLER') {
    throw permissionDenied('sales orders are created by a sales-channel (storefront) token or a seller token');
  }
  if (input.integrationId !== undefined && input.integrationId !== null) {
    // A custom store (document 2.6): its name is the channel, and channelOrderId is unique per store.
    const store = await findCustomStore(tx, principal.accountId, input.integrationId);
    return { storefrontId: null, channelKey: `cs:${store.integrationId}`, channel: store.name, channelLabel: input.channelLabel ?? store.name };
  }
  const channel = input.channel?.trim() ?? '';
  if (channel === '') throw invalidField('channel', 'is required when a seller token creates an order');
  return { storefrontId: null, channelKey: `c:${channel}`, channel, channelLabel: input.channelLabel ?? null };
}

export async function createSalesOrder(
  tx: Tx,
  principal: Principal,
  input: CreateOrderInput,
  now: Date,
  fulfillment: FulfillmentPort,
): Promise<CreateOrderResult> {
  const checked = validateCreateInput(input);
  const accountId = principal.accountId;
  const source = await channelOf(tx, principal, input);
  const existing = async () =>
    tx
      .selectFrom('sales_orders')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('channel_key', '=', source.channelKey)
      .where('channel_order_id', '=', input.channelOrderId)
      .executeTakeFirst();
  const scope = { storefrontId: null, warehouseIds: null };
  const iso = now.toISOString();
  const status = input.status ?? 'PENDING';
  const order: OrderInsert = {
    account_id: accountId,
    storefront_id: source.storefrontId,
    channel_key: source.channelKey,
    channel: source.channel,
    channel_label: source.channelLabel,
    channel_order_id: input.channelOrderId,
    channel_order_reference_number: input.channelOrderReferenceNumber ?? null,
    status,
    paid: status === 'PENDING' ? 1 : 0,
    paid_ts: null,
    cancellation_reason: null,
    customer_notes: input.customer_notes ?? null,
    marketplace_id: input.marketplaceId ?? null,
    customer_name: input.customerName ?? null,
    customer_email: input.customerEmail ?? null,
    order_ts: checked.orderTs,
    requested_service_level: input.requestedServiceLevel ?? null,
    standard_service_level: standardServiceLevelFor(input.standardServiceLevel ?? null, input.requestedServiceLevel ?? null),
    accounting: checked.accounting,
    shipping_address: checked.shippingAddress,
    billing_address: checked.billingAddress,
    fba: input.fba ? 1 : 0,
    channel_will_fulfill: input.channelWillFulfill ? 1 : 0,
    prime: input.prime ? 1 : 0,
    business_order: input.businessOrder ? 1 : 0,
    accepted_ts: null,
    created_at: iso,
    last_updated_ts: iso,
  };
  // The reads that depend only on the request go ahead of the insert: on PostgreSQL they share its round trip
  // (src/db/unanswered.ts). A repeat does not need them; they cost it nothing more than the reads. Routing's
  // stock read is among them, by SKU (a kit's components are read line by line later, a case-insensitive
  // match by id when taken).
  const requestedSkus = checked.lines.map((l) => l.requestedSku);
  const productsAhead = await requestedSkusAhead(tx, accountId, requestedSkus);
  const warehousesAhead = await accountWarehousesAhead(tx, accountId);
  const stockOfSkus = await availableBySkuAhead(tx, accountId, [...new Set(requestedSkus)]);
  await fulfillment.prepareSync(tx, accountId);
  // No read of the order first: the insert itself finds a repeat (or a parallel create of the same channel
  // order that won), and only then is the stored order read and answered, unchanged.
  const created = await insertNewOrder(tx, order, checked.lines.length);
  if (!created) {
    const winner = await existing();
    if (!winner) throw invalidArgument('the order could not be stored; retry the request');
    return { created: false, order: (await orderViews(tx, principal, [winner], scope))[0]! };
  }
  const inserted = created.row;

  const products = await productsAhead();
  const productById = new Map([...products.values()].map((p) => [p.id, p]));
  const warehouses = await warehousesAhead();
  const candidates = candidateWarehouses(warehouses, input.fba === true || input.channelWillFulfill === true);
  const fallback = defaultWarehouse(warehouses);
  const lineRows: LineInsert[] = checked.lines.map((line, position) => {
    const { requestedSku, ...columns } = line;
    const product = products.get(requestedSku) ?? null;
    return {
      ...columns,
      account_id: accountId,
      order_id: inserted.id,
      position,
      status,
      requested_sku: requestedSku,
      product_id: product?.id ?? null,
      sku: product?.sku ?? null,
      cancel_quantity: 0,
      shipped_quantity: 0,
      returned_quantity: 0,
      // An unknown SKU routes nothing: its units wait, counted as backordered (resolutions §6 "Unroutable lines").
      unrouted_quantity: product === null ? columns.quantity : 0,
      refund: null,
      refund_reason: null,
      created_at: iso,
      updated_at: iso,
    };
  });
  const hasKitLine = [...products.values()].some((p) => p.isKit);
  const stockAhead = hasKitLine || candidates.length === 0 ? null : () => stockOfSkus([...products.values()]);
  // On PostgreSQL the lines' ids were drawn with the order's: their insert is not waited for (new-order-rows.ts).
  const lines = await insertNewLines(tx, lineRows, created.lineIds);
  // Unknown SKUs stay on the order (requestedSku kept, sku null) but reserve and route nothing until stock of
  // a product with that SKU arrives (src/domain/orders/route-unrouted-lines.ts).
  const toRoute = lines.flatMap((l) => (l.product_id === null ? [] : [{ lineId: l.id, productId: l.product_id, quantity: l.quantity }]));
  // Stock rows are locked in product order, the same in every order, so two orders for the same SKUs
  // in different line orders do not deadlock each other on PostgreSQL.
  toRoute.sort((a, b) => a.productId - b.productId || a.lineId - b.lineId);
  // A kit is built from component rows outside that product order: hold every row the order may take first, in
  // the one order every stock writer uses (stock-locks.ts), so a kit order and a stock change cannot deadlock.
  if (hasKitLine) {
    const where = [...new Set([...candidates, ...(fallback ? [fallback.id] : [])])];
    await holdStockClosure(tx, accountId, toRoute.flatMap((l) => where.map((warehouseId) => ({ productId: l.productId, warehouseId }))));
  }
  // The console's search and total sort (order-search.ts) see the order as it commits: written with its routes.
  const searchWrites = orderSearchWrites(tx, accountId, inserted, lines);
  const { routes, unrouted } = await routeNewOrderLines(tx, accountId, inserted.id, toRoute, candidates, fallback, now, hasKitLine, searchWrites, stockAhead);
  // Units with no warehouse to wait in (no default warehouse) are kept on their line like an unknown SKU's.
  if (unrouted.size > 0) await keepUnroutedUnits(tx, accountId, unrouted, now);
  // Units routed to a shipping / 3PL warehouse become that integration's work (need_to_ship).
  await fulfillment.syncOrder(tx, accountId, inserted.id, now);
  // An unpaid order is cancelled if still unpaid 30 days after orderTs (a delayed job, src/domain/orders/expiry.ts).
  if (status === 'PENDING_PAYMENT') await scheduleUnpaidExpiry(tx, accountId, inserted.id, inserted.order_ts, now);
  // The home chart's rollup (order-day-figures.ts), as created (a change into or out of CANCELLED, even in
  // this transaction, adds its own ±1). Last: orders placed in the same quarter hour share its row, locked on
  // PostgreSQL from here to the commit, so the shorter that stretch the less parallel orders wait on it.
  if (inserted.status !== 'CANCELLED') await countOrderInDayFigures(tx, accountId, inserted.order_ts, orderSortTotal(lines), 1);
  // The answer is built from the rows just written (an order routed line by line is read back).
  const view = routes ? newOrderView(principal, inserted, lines, routes, productById) : (await orderViews(tx, principal, [inserted], scope))[0]!;
  return { created: true, order: view };
}
