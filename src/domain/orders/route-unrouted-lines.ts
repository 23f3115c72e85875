import type { Tx } from '../../db/tx.js';
import { listAccountWarehouses } from '../accounts/warehouses.js';
import type { FulfillmentPort } from './fulfillment-port.js';
import { candidateWarehouses, defaultWarehouse, routeLine } from './routing.js';
import { resolveRequestedSkus } from './sku-resolution.js';
import { WAITING, skuNowKnown } from './waiting-work.js';

/**
 * Unroutable lines (resolutions §6) get their place once stock of their SKU arrives: a line whose SKU was
 * unknown when the order came (its product has been created since), or that found no warehouse to wait in
 * (no warehouse that is not channel-fulfilled). Its unrouted units are then routed like a new order's line
 * (routing.ts: most available first, the rest backordered in the default warehouse), and from then on they
 * are ordinary routed or backordered units; the alert on the order goes with them.
 *
 * Each line is claimed first with a conditional UPDATE (unrouted_quantity −= n, and the product set on an
 * unknown SKU's line), so parallel stock changes never route the same units twice; units that still find
 * no place (no default warehouse yet) are given back to unrouted_quantity.
 */

/** Lines routed per stock change, oldest order first; the rest wait for the next change. */
const MAX_LINES = 100;

/** Routes the unrouted lines these products serve; answers the orders whose lines changed. */
export async function routeUnroutedLines(tx: Tx, accountId: number, productIds: readonly number[], now: Date, fulfillment: FulfillmentPort): Promise<number[]> {
  if (productIds.length === 0) return [];
  const lines = await tx
    .selectFrom('sales_order_lines as l')
    .innerJoin('sales_orders as o', (j) => j.onRef('o.id', '=', 'l.order_id').on('o.account_id', '=', accountId))
    .select(['l.id', 'l.order_id', 'l.product_id', 'l.requested_sku', 'l.unrouted_quantity', 'o.fba', 'o.channel_will_fulfill'])
    .where('l.account_id', '=', accountId)
    .where('l.unrouted_quantity', '>', WAITING)
    .where((w) => w.or([w('l.product_id', 'in', [...productIds]), w.and([w('l.product_id', 'is', null), skuNowKnown(accountId, productIds)])]))
    .orderBy('o.order_ts')
    .orderBy('l.id')
    .limit(MAX_LINES)
    .execute();
  if (lines.length === 0) return [];
  // An unknown SKU resolves as order creation resolves it (exact, else the one case-insensitive match).
  const resolved = await resolveRequestedSkus(tx, accountId, lines.filter((l) => l.product_id === null).map((l) => l.requested_sku));
  const served = new Set(productIds);
  const warehouses = await listAccountWarehouses(tx, accountId);
  const fallback = defaultWarehouse(warehouses);
  const iso = now.toISOString();
  const changed = new Set<number>();
  for (const line of lines) {
    const product = line.product_id === null ? resolved.get(line.requested_sku) : undefined;
    const productId = line.product_id ?? product?.id;
    if (productId === undefined || !served.has(productId)) continue;
    const units = line.unrouted_quantity;
    const claimed = await tx
      .updateTable('sales_order_lines')
      .set((eb) => ({
        unrouted_quantity: eb('unrouted_quantity', '-', units),
        ...(product ? { product_id: product.id, sku: product.sku } : {}),
        updated_at: iso,
      }))
      .where('account_id', '=', accountId)
      .where('id', '=', line.id)
      .where('unrouted_quantity', '>=', units)
      .where((eb) => (line.product_id === null ? eb('product_id', 'is', null) : eb('product_id', '=', productId)))
      .returning('id')
      .executeTakeFirst();
    if (!claimed) continue;
    const candidates = candidateWarehouses(warehouses, line.fba === 1 || line.channel_will_fulfill === 1);
    const places = await routeLine(tx, accountId, { lineId: line.id, orderId: line.order_id, productId, quantity: units }, candidates, fallback, now);
    const placed = places.reduce((n, p) => n + p.reserved + p.backordered, 0);
    if (placed < units) {
      await tx
        .updateTable('sales_order_lines')
        .set((eb) => ({ unrouted_quantity: eb('unrouted_quantity', '+', units - placed) }))
        .where('account_id', '=', accountId)
        .where('id', '=', line.id)
        .execute();
    }
    // The line changed either way: placed units, or at least a product for its SKU.
    if (placed > 0 || product) changed.add(line.order_id);
  }
  for (const orderId of [...changed].sort((a, b) => a - b)) await fulfillment.syncOrder(tx, accountId, orderId, now);
  return [...changed];
}
