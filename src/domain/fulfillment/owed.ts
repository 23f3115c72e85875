import type { ExpressionBuilder } from 'kysely';
import type { Database, FulfillmentOrdersTable } from '../../db/schema.js';

/**
 * The fulfillment order `fo` still owes units: one of its order's routes to its warehouse holds reserved or
 * backordered units. What need_to_ship lists, what the status check calls aged work, what the console
 * counts: one definition for all of them.
 */
export function stillOwesUnits({ exists, selectFrom }: ExpressionBuilder<Database & { fo: FulfillmentOrdersTable }, 'fo'>) {
  return exists(
    selectFrom('order_line_routes as r')
      .select('r.id')
      .whereRef('r.account_id', '=', 'fo.account_id')
      .whereRef('r.order_id', '=', 'fo.order_id')
      .whereRef('r.warehouse_id', '=', 'fo.warehouse_id')
      .where((eb) => eb(eb('r.reserved_quantity', '+', eb.ref('r.backorder_quantity')), '>', 0)),
  );
}
