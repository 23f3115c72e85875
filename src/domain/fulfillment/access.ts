import type { Selectable } from 'kysely';
import type { Db, Tx } from '../../db/tx.js';
import type { FulfillmentOrdersTable } from '../../db/schema.js';
import type { Principal } from '../accounts/principal.js';
import { emitNudge, type EventType } from '../callbacks/nudges.js';
import type { RouteTotals } from './model.js';

export type FulfillmentOrderRow = Selectable<FulfillmentOrdersTable>;

/** Why a WITHDRAWN fulfillment order can no longer be acknowledged, shipped or rejected. */
export const WITHDRAWN_MESSAGE =
  'the seller took this fulfillment order back from your integration (the warehouse was unmapped from it); nothing is owed on it';

/** fulfillmentOrderId is the row id as a decimal string; anything else names no fulfillment order. */
export function parseFulfillmentOrderId(raw: unknown): number | null {
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^[1-9]\d{0,15}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
}

/** The warehouses whose fulfillment orders the calling integration owes (its mappings). */
export function callerWarehouseIds(principal: Principal): number[] {
  return principal.mappings.map((m) => m.warehouseId);
}

/**
 * A fulfillment order the calling integration owns: same account, owed by its installation, in one of its
 * mapped warehouses, or WITHDRAWN from a warehouse since unmapped from it (its cancellation request is still
 * the integration's to confirm). Anything else reads as not found (never reveal another integration's work).
 */
export async function findOwnFulfillmentOrder(
  db: Db | Tx,
  principal: Principal,
  by: { id: number } | { externalOrderId: string },
): Promise<FulfillmentOrderRow | null> {
  const warehouses = callerWarehouseIds(principal);
  if (principal.integrationId === null) return null;
  let query = db
    .selectFrom('fulfillment_orders')
    .selectAll()
    .where('account_id', '=', principal.accountId)
    .where('installation_id', '=', principal.integrationId)
    .where((eb) => (warehouses.length === 0 ? eb('status', '=', 'WITHDRAWN') : eb.or([eb('warehouse_id', 'in', warehouses), eb('status', '=', 'WITHDRAWN')])));
  query = 'id' in by ? query.where('id', '=', by.id) : query.where('external_order_id', '=', by.externalOrderId);
  return (await query.executeTakeFirst()) ?? null;
}

/** Owed / shipped / cancelled units of a fulfillment order (from the routes of its order and warehouse). */
export async function routeTotals(db: Db | Tx, fo: Pick<FulfillmentOrderRow, 'account_id' | 'order_id' | 'warehouse_id'>): Promise<RouteTotals> {
  const rows = await db
    .selectFrom('order_line_routes')
    .select(['reserved_quantity', 'backorder_quantity', 'shipped_quantity', 'cancelled_quantity'])
    .where('account_id', '=', fo.account_id)
    .where('order_id', '=', fo.order_id)
    .where('warehouse_id', '=', fo.warehouse_id)
    .execute();
  return rows.reduce(
    (t, r) => ({
      owed: t.owed + r.reserved_quantity + r.backorder_quantity,
      shipped: t.shipped + r.shipped_quantity,
      cancelled: t.cancelled + r.cancelled_quantity,
    }),
    { owed: 0, shipped: 0, cancelled: 0 },
  );
}

export async function touchFulfillmentOrder(tx: Tx, accountId: number, id: number, now: Date): Promise<void> {
  const row = await tx
    .updateTable('fulfillment_orders')
    .set({ last_updated_ts: now.toISOString() })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returning('installation_id')
    .executeTakeFirst();
  if (row) await nudgeFulfillmentOrder(tx, accountId, id, row.installation_id, now);
}

/**
 * The extension nudge of a fulfillment order whose last_updated_ts just became `now` (its version), to the
 * integration that owes it (src/domain/callbacks/nudges.ts). Every version change nudges, the integration's
 * own calls included: one rule is simpler to build on than a list of exceptions.
 */
export async function nudgeFulfillmentOrder(
  tx: Tx,
  accountId: number,
  id: number,
  installationId: number,
  now: Date,
  eventType: EventType = 'FULFILLMENT_ORDER_CHANGED',
): Promise<void> {
  await emitNudge(tx, { accountId, eventType, installationId, objectType: 'FULFILLMENT_ORDER', objectId: String(id), version: now.toISOString() }, now);
}
