import type { Db } from '../../db/tx.js';

export type PersonalDataAction = 'ERASE_BUYER' | 'ERASE_ORDER' | 'RETENTION_SWEEP';

/** Records who redacted how many orders, and when; never the email or any other personal data. */
export async function recordPersonalDataAudit(
  tx: Db,
  entry: { accountId: number; action: PersonalDataAction; requestedBy: string; redactedOrders: number; pendingOrders: number },
  now: Date,
): Promise<void> {
  await tx
    .insertInto('personal_data_audit')
    .values({
      account_id: entry.accountId,
      action: entry.action,
      requested_by: entry.requestedBy,
      redacted_orders: entry.redactedOrders,
      pending_orders: entry.pendingOrders,
      created_at: now.toISOString(),
    })
    .execute();
}
