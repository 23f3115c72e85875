import type { Tx } from '../../db/tx.js';
import { nudgeFulfillmentOrder } from './access.js';

/**
 * Creates the fulfillment orders an order's routes call for: one per (order, warehouse) where the warehouse
 * is mapped to an ACTIVE SHIPPING or THIRD_PARTY_LOGISTICS installation and units are still owed there.
 * Existing fulfillment orders are left alone (their lines are derived from the routes, so new units routed
 * to the same warehouse simply appear on them). Called at the end of order creation and after a re-route.
 * When two integrations map the same warehouse, the lowest installation id owes the work.
 */
export async function syncFulfillmentOrders(tx: Tx, accountId: number, orderId: number, now: Date): Promise<void> {
  const owed = await tx
    .selectFrom('order_line_routes as r')
    .innerJoin('warehouse_mappings as m', (j) => j.onRef('m.warehouse_id', '=', 'r.warehouse_id').on('m.account_id', '=', accountId))
    .innerJoin('installations as i', 'i.id', 'm.installation_id')
    .select(['r.warehouse_id', 'i.id as installation_id'])
    .where('r.account_id', '=', accountId)
    .where('r.order_id', '=', orderId)
    .where('i.account_id', '=', accountId)
    .where('i.status', '=', 'ACTIVE')
    .where('i.kind', 'in', ['SHIPPING', 'THIRD_PARTY_LOGISTICS'])
    .where((eb) => eb(eb('r.reserved_quantity', '+', eb.ref('r.backorder_quantity')), '>', 0))
    .orderBy('r.warehouse_id')
    .orderBy('i.id')
    .execute();
  const byWarehouse = new Map<number, number>();
  for (const row of owed) if (!byWarehouse.has(row.warehouse_id)) byWarehouse.set(row.warehouse_id, row.installation_id);
  const iso = now.toISOString();
  for (const [warehouseId, installationId] of byWarehouse) {
    const created = await tx
      .insertInto('fulfillment_orders')
      .values({
        account_id: accountId,
        order_id: orderId,
        warehouse_id: warehouseId,
        installation_id: installationId,
        status: 'NEW',
        external_order_id: null,
        assigned_ts: iso,
        acknowledged_ts: null,
        rejection_reason: null,
        rejection_detail: null,
        rejected_ts: null,
        created_at: iso,
        last_updated_ts: iso,
      })
      .onConflict((oc) => oc.columns(['account_id', 'order_id', 'warehouse_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (created) await nudgeFulfillmentOrder(tx, accountId, created.id, installationId, now);
  }
}
