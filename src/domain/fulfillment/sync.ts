import { sql } from 'kysely';
import { compiledStatement, sendWithoutWaiting } from '../../db/fast-paths.js';
import type { Tx } from '../../db/tx.js';
import { nudgeFulfillmentOrder } from './access.js';
import { knownNudgeSubscribers, prefetchNudgeSubscribers } from '../callbacks/nudges.js';

// Every new order runs it (compiled once: src/db/compiled.ts). One statement finds the owed warehouses and
// inserts what is missing; the one active shipping/3PL installation mapped to a warehouse owes its work.
const insertOwedFulfillmentOrders = compiledStatement<
  { id: number; warehouse_id: number; installation_id: number },
  { accountId: number; orderId: number; iso: string }
>((db, arg) =>
  db
    .insertInto('fulfillment_orders')
    .columns([
      'account_id', 'order_id', 'warehouse_id', 'installation_id', 'status', 'external_order_id', 'assigned_ts', 'acknowledged_ts',
      'rejection_reason', 'rejection_detail', 'rejected_ts', 'created_at', 'last_updated_ts',
    ])
    .expression((eb) =>
      eb
        .selectFrom('order_line_routes as r')
        .innerJoin('warehouse_mappings as m', (j) => j.onRef('m.warehouse_id', '=', 'r.warehouse_id').on('m.account_id', '=', arg<number>('accountId')))
        .innerJoin('installations as i', 'i.id', 'm.installation_id')
        .select((s) => [
          'r.account_id',
          'r.order_id',
          'r.warehouse_id',
          s.fn.min<number>('i.id').as('installation_id'),
          sql<string>`'NEW'`.as('status'),
          sql<null>`null`.as('external_order_id'),
          sql<string>`cast(${arg('iso')} as text)`.as('assigned_ts'),
          sql<null>`null`.as('acknowledged_ts'),
          sql<null>`null`.as('rejection_reason'),
          sql<null>`null`.as('rejection_detail'),
          sql<null>`null`.as('rejected_ts'),
          sql<string>`cast(${arg('iso')} as text)`.as('created_at'),
          sql<string>`cast(${arg('iso')} as text)`.as('last_updated_ts'),
        ])
        .where('r.account_id', '=', arg<number>('accountId'))
        .where('r.order_id', '=', arg<number>('orderId'))
        .where('i.account_id', '=', arg<number>('accountId'))
        .where('i.status', '=', 'ACTIVE')
        .where('i.kind', 'in', ['SHIPPING', 'THIRD_PARTY_LOGISTICS'])
        .where((w) => w(w('r.reserved_quantity', '+', w.ref('r.backorder_quantity')), '>', 0))
        .groupBy(['r.account_id', 'r.order_id', 'r.warehouse_id'])
        .orderBy('r.warehouse_id'),
    )
    // The live fulfillment order of each (order, warehouse) is unique (migration 027); withdrawn ones are history.
    .onConflict((oc) => oc.columns(['account_id', 'order_id', 'warehouse_id']).where(sql<boolean>`status <> 'WITHDRAWN'`).doNothing())
    .returning(['id', 'warehouse_id', 'installation_id']),
);

/**
 * Creates the fulfillment orders an order's routes call for: one per (order, warehouse) where the warehouse
 * is mapped to an ACTIVE SHIPPING or THIRD_PARTY_LOGISTICS installation and units are still owed there.
 * Existing fulfillment orders are left alone (their lines are derived from the routes, so new units routed
 * to the same warehouse simply appear on them). Called at the end of order creation and after a re-route.
 * A warehouse ships with one integration at a time (warehouse_mappings_one_fulfiller, migration 027).
 */
export async function syncFulfillmentOrders(tx: Tx, accountId: number, orderId: number, now: Date): Promise<void> {
  const args = { accountId, orderId, iso: now.toISOString() };
  // Known already that nobody would be nudged (prepareFulfillmentSync): the new ids are not needed, so the
  // insert is not waited for (src/db/unanswered.ts).
  const known = knownNudgeSubscribers(tx, accountId, 'FULFILLMENT_ORDER_CHANGED');
  if (known && (await known).size === 0) {
    await sendWithoutWaiting(tx, insertOwedFulfillmentOrders.bound(tx, args));
    return;
  }
  const created = await insertOwedFulfillmentOrders.all(tx, args);
  created.sort((a, b) => a.warehouse_id - b.warehouse_id);
  for (const row of created) await nudgeFulfillmentOrder(tx, accountId, row.id, row.installation_id, now);
}

/**
 * Before a syncFulfillmentOrders of this account in the same transaction: the lookup of who subscribed to
 * fulfillment order nudges is sent ahead (it depends on nothing the order writes), so a new fulfillment order
 * nudges its integration without a round trip of its own.
 */
export async function prepareFulfillmentSync(tx: Tx, accountId: number): Promise<void> {
  await prefetchNudgeSubscribers(tx, accountId, 'FULFILLMENT_ORDER_CHANGED');
}
