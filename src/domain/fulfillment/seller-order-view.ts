import type { Db } from '../../db/tx.js';
import { routeTotals } from './access.js';
import { derivedStatus, type FulfillmentOrderStatus } from './model.js';
import { listFulfillmentAlerts, type SellerAlert } from './seller-alerts.js';

/** The most alerts one order's page shows; an order with more is an anomaly the alert list pages through. */
const ALERTS_PER_ORDER = 100;

/**
 * The fulfillment orders of one sales order as the seller sees them (console order page): every warehouse's,
 * with the status partners see (derived like theirs), the integration that owes the work, the rejection, and
 * every alert on them, open or resolved, whoever raised it.
 */
export interface SellerFulfillmentOrder {
  fulfillmentOrderId: string;
  warehouseId: number;
  integrationId: number;
  externalOrderId: string | null;
  status: FulfillmentOrderStatus;
  assignedTs: string;
  acknowledgedTs: string | null;
  rejectedTs: string | null;
  rejectionReason: string | null;
  rejectionDetail: string | null;
  lastUpdatedTs: string;
  alerts: SellerAlert[];
}

export async function sellerFulfillmentOrdersOf(db: Db, accountId: number, orderId: number): Promise<SellerFulfillmentOrder[]> {
  const rows = await db
    .selectFrom('fulfillment_orders')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('order_id', '=', orderId)
    .orderBy('warehouse_id')
    .execute();
  if (rows.length === 0) return [];
  const alerts = (await listFulfillmentAlerts(db, accountId, { orderId }, null, ALERTS_PER_ORDER)).slice(0, ALERTS_PER_ORDER);
  return Promise.all(
    rows.map(async (fo) => ({
      fulfillmentOrderId: String(fo.id),
      warehouseId: fo.warehouse_id,
      integrationId: fo.installation_id,
      externalOrderId: fo.external_order_id,
      status: derivedStatus(fo.status, await routeTotals(db, fo)),
      assignedTs: fo.assigned_ts,
      acknowledgedTs: fo.acknowledged_ts,
      rejectedTs: fo.rejected_ts,
      rejectionReason: fo.rejection_reason,
      rejectionDetail: fo.rejection_detail,
      lastUpdatedTs: fo.last_updated_ts,
      alerts: alerts.filter((a) => a.fulfillmentOrderId === String(fo.id)),
    })),
  );
}
