import type { Tx } from '../../db/tx.js';
import { redactOrdersPersonalData } from '../orders/redact-personal-data.js';

/**
 * Redacts the buyer's personal data of these orders (what is cleared, and where: redactOrdersPersonalData, in
 * orders, which owns those tables) and closes the erasures that waited for them. Returns the ids redacted;
 * orders already redacted, and ids of other accounts, are skipped.
 */
export async function redactOrders(tx: Tx, accountId: number, orderIds: readonly number[], now: Date): Promise<number[]> {
  const ids = await redactOrdersPersonalData(tx, accountId, orderIds, now);
  if (ids.length === 0) return [];
  // An erasure waiting for these orders is done.
  await tx.deleteFrom('personal_data_erasures').where('account_id', '=', accountId).where('order_id', 'in', ids).execute();
  return ids;
}
