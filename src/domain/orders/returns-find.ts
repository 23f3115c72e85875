import type { Selectable } from 'kysely';
import type { SalesOrderReturnsTable } from '../../db/schema.js';
import type { Tx } from '../../db/tx.js';
import { notFound } from '../errors.js';

export type ReturnRow = Selectable<SalesOrderReturnsTable>;

/** One return of one order of the account, as it is now; 404 when the order has no such return. */
export async function findReturn(tx: Tx, accountId: number, orderId: number, returnId: number): Promise<ReturnRow> {
  const found = await tx
    .selectFrom('sales_order_returns')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('order_id', '=', orderId)
    .where('id', '=', returnId)
    .executeTakeFirst();
  if (!found) throw notFound(`return ${returnId} not found on this order`).because('order.return_not_found', {});
  return found;
}
