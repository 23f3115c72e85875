import type { Db } from '../../db/tx.js';

/** Whether an erasure of this open order was requested and waits for the order to close (personal_data_erasures). */
export async function erasurePending(db: Db, accountId: number, orderId: number): Promise<boolean> {
  const row = await db.selectFrom('personal_data_erasures').select('order_id').where('account_id', '=', accountId).where('order_id', '=', orderId).executeTakeFirst();
  return row !== undefined;
}
