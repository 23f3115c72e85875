import type { Db } from '../../db/tx.js';
import { withTx } from '../../db/tx.js';
import { nextTurn } from '../../lib/next-turn.js';
import { searchWords } from '../search-terms.js';
import { recordPersonalDataAudit } from './audit.js';
import { isClosedStatus } from '../orders/closing.js';
import { recordPendingErasures } from './erase-order.js';
import { redactOrders } from './redact.js';
import { accountFilterById } from '../../db/tenancy.js';

/** Orders examined per transaction: a buyer with thousands of orders is erased in short transactions. */
export const ERASURE_CHUNK = 25;

/** How an email is compared: trimmed, lower case. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

function addressEmail(json: string | null): string | null {
  if (json === null) return null;
  try {
    const email = (JSON.parse(json) as Record<string, unknown> | null)?.email;
    return typeof email === 'string' ? emailKey(email) : null;
  } catch {
    return null;
  }
}

export interface BuyerErasure {
  /** Closed orders of the buyer redacted by this request. */
  redactedOrders: number;
  /** Open orders recorded, redacted by the sweep once they close. */
  pendingOrders: number;
}

/**
 * Erases a buyer's personal data on request (resolutions §10): every order of the account whose customer
 * email, or ship-to email, is `customerEmail` (trimmed, any case). Closed orders are redacted at once, open
 * ones recorded in personal_data_erasures (the retention sweep redacts them once they close).
 *
 * The candidates come from the order search's index (the email's longest word is a term of every order
 * holding that email), read by keyset on order id in chunks of ERASURE_CHUNK, each chunk checked against
 * the exact email and handled in its own transaction: never a scan of the account's orders, never a long
 * transaction. One audit entry (who, counts; no email) is written at the end.
 */
export async function eraseBuyerPersonalData(db: Db, accountId: number, customerEmail: string, requestedBy: string, now: () => Date): Promise<BuyerErasure> {
  const key = emailKey(customerEmail);
  const words = searchWords(key);
  const result: BuyerErasure = { redactedOrders: 0, pendingOrders: 0 };
  const probe = words.reduce((longest, w) => (w.length > longest.length ? w : longest), '');
  if (probe !== '') {
    let after = 0;
    for (;;) {
      const candidates = await db
        .selectFrom('sales_order_search_terms')
        .select('order_id')
        .where('account_id', '=', accountId)
        .where('term', '=', probe)
        .where('order_id', '>', after)
        .orderBy('order_id')
        .limit(ERASURE_CHUNK)
        .execute();
      if (candidates.length === 0) break;
      after = candidates[candidates.length - 1]!.order_id;
      const ids = candidates.map((c) => c.order_id);
      const chunk = await withTx(db, async (tx) => {
        const orders = await tx
          .selectFrom('sales_orders')
          .select(['id', 'status', 'customer_email', 'shipping_address'])
          .where(accountFilterById(accountId))
          .where('id', 'in', ids)
          .where('personal_data_redacted_ts', 'is', null)
          .execute();
        const mine = orders.filter((o) => (o.customer_email !== null && emailKey(o.customer_email) === key) || addressEmail(o.shipping_address) === key);
        const closed = mine.filter((o) => isClosedStatus(o.status)).map((o) => o.id);
        const open = mine.filter((o) => !isClosedStatus(o.status)).map((o) => o.id);
        const at = now();
        const redacted = await redactOrders(tx, accountId, closed, at);
        await recordPendingErasures(tx, accountId, open, requestedBy, at);
        return { redacted: redacted.length, pending: open.length };
      });
      result.redactedOrders += chunk.redacted;
      result.pendingOrders += chunk.pending;
      await nextTurn();
      if (candidates.length < ERASURE_CHUNK) break;
    }
  }
  await withTx(db, (tx) => recordPersonalDataAudit(tx, { accountId, action: 'ERASE_BUYER', requestedBy, ...result }, now()));
  return result;
}
