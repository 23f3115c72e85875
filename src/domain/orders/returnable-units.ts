import type { Db } from '../../db/tx.js';

/**
 * Units of each line a new return may still cover: shipped units not already on a return that is not
 * cancelled (the rule requestReturn enforces, returns.ts), so a page offers a return only where one can
 * be recorded. Lines with nothing left are absent.
 */
export async function returnableUnitsByLine(db: Db, accountId: number, orderId: number): Promise<Map<number, number>> {
  const [lines, onReturns] = await Promise.all([
    db
      .selectFrom('sales_order_lines')
      .select(['id', 'shipped_quantity'])
      .where('account_id', '=', accountId)
      .where('order_id', '=', orderId)
      .where('shipped_quantity', '>', 0)
      .execute(),
    db
      .selectFrom('sales_order_return_items as i')
      .innerJoin('sales_order_returns as r', (j) => j.onRef('r.id', '=', 'i.return_id').onRef('r.account_id', '=', 'i.account_id'))
      .select(['i.line_id', 'i.quantity'])
      .where('r.account_id', '=', accountId)
      .where('r.order_id', '=', orderId)
      .where('r.cancelled', '=', 0)
      .execute(),
  ]);
  const taken = new Map<number, number>();
  for (const r of onReturns) taken.set(r.line_id, (taken.get(r.line_id) ?? 0) + r.quantity);
  const out = new Map<number, number>();
  for (const l of lines) {
    const left = l.shipped_quantity - (taken.get(l.id) ?? 0);
    if (left > 0) out.set(l.id, left);
  }
  return out;
}
