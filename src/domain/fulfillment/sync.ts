import { compiledStatement } from '../../db/compiled.js';
import type { Tx } from '../../db/tx.js';
import { nudgeFulfillmentOrder } from './access.js';

// Every new order runs these (compiled once: src/db/compiled.ts).
const owedWarehouses = compiledStatement<{ warehouse_id: number; installation_id: number }, { accountId: number; orderId: number }>((db, arg) =>
  db
    .selectFrom('order_line_routes as r')
    .innerJoin('warehouse_mappings as m', (j) => j.onRef('m.warehouse_id', '=', 'r.warehouse_id').on('m.account_id', '=', arg<number>('accountId')))
    .innerJoin('installations as i', 'i.id', 'm.installation_id')
    .select(['r.warehouse_id', 'i.id as installation_id'])
    .where('r.account_id', '=', arg<number>('accountId'))
    .where('r.order_id', '=', arg<number>('orderId'))
    .where('i.account_id', '=', arg<number>('accountId'))
    .where('i.status', '=', 'ACTIVE')
    .where('i.kind', 'in', ['SHIPPING', 'THIRD_PARTY_LOGISTICS'])
    .where((eb) => eb(eb('r.reserved_quantity', '+', eb.ref('r.backorder_quantity')), '>', 0))
    .orderBy('r.warehouse_id')
    .orderBy('i.id'),
);

const insertFulfillmentOrder = compiledStatement<{ id: number }, { accountId: number; orderId: number; warehouseId: number; installationId: number; iso: string }>((db, arg) =>
  db
    .insertInto('fulfillment_orders')
    .values({
      account_id: arg<number>('accountId'),
      order_id: arg<number>('orderId'),
      warehouse_id: arg<number>('warehouseId'),
      installation_id: arg<number>('installationId'),
      status: 'NEW',
      external_order_id: null,
      assigned_ts: arg('iso'),
      acknowledged_ts: null,
      rejection_reason: null,
      rejection_detail: null,
      rejected_ts: null,
      created_at: arg('iso'),
      last_updated_ts: arg('iso'),
    })
    .onConflict((oc) => oc.columns(['account_id', 'order_id', 'warehouse_id']).doNothing())
    .returning('id'),
);

/**
 * Creates the fulfillment orders an order's routes call for: one per (order, warehouse) where the warehouse
 * is mapped to an ACTIVE SHIPPING or THIRD_PARTY_LOGISTICS installation and units are still owed there.
 * Existing fulfillment orders are left alone (their lines are derived from the routes, so new units routed
 * to the same warehouse simply appear on them). Called at the end of order creation and after a re-route.
 * When two integrations map the same warehouse, the lowest installation id owes the work.
 */
export async function syncFulfillmentOrders(tx: Tx, accountId: number, orderId: number, now: Date): Promise<void> {
  const owed = await owedWarehouses.all(tx, { accountId, orderId });
  const byWarehouse = new Map<number, number>();
  for (const row of owed) if (!byWarehouse.has(row.warehouse_id)) byWarehouse.set(row.warehouse_id, row.installation_id);
  const iso = now.toISOString();
  for (const [warehouseId, installationId] of byWarehouse) {
    const created = await insertFulfillmentOrder.first(tx, { accountId, orderId, warehouseId, installationId, iso });
    if (created) await nudgeFulfillmentOrder(tx, accountId, created.id, installationId, now);
  }
}
