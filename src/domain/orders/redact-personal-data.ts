import { sql } from 'kysely';
import type { Tx } from '../../db/tx.js';
import { orderSearchTerms, type SearchableLine } from './order-search.js';
import { accountFilterById } from '../../db/tenancy.js';

/**
 * What of an address survives redaction (resolutions §10): only its country. The document's default ("US")
 * stands in when the channel sent none, so a v1 address keeps its one required field.
 */
export function redactedAddress(json: string | null): string | null {
  if (json === null) return null;
  let countryCode: unknown;
  try {
    countryCode = (JSON.parse(json) as Record<string, unknown> | null)?.countryCode;
  } catch {
    countryCode = undefined;
  }
  return JSON.stringify({ countryCode: typeof countryCode === 'string' && countryCode !== '' ? countryCode : 'US' });
}

/**
 * Clears the buyer's personal data of the given orders of the account (resolutions §10) and stamps
 * personal_data_redacted_ts, in the caller's transaction. Orders owns these tables; the personal-data area
 * decides when (src/domain/personal-data/redact.ts). Orders already redacted, and ids of other accounts,
 * are skipped: a second call changes nothing. Returns the ids it redacted.
 *
 * Where personal data is kept, and what happens to each copy:
 * - sales_orders: customer name, email, notes → null; shipping and billing addresses (name, company, lines,
 *   city, state, postal code, phone, email, type) → countryCode only. The phone lives only in the addresses.
 * - sales_order_lines.gift_wrap_message → null (buyer-written text). gift_wrap_level is a service tier, kept.
 * - sales_order_packages.shipped_to → countryCode only (shipped_from is the seller's warehouse, kept).
 * - sales_order_search_terms: rebuilt from the cleared order (as order-search.ts's rebuildOrderSearch does, for
 *   the whole batch at once), so the search no longer finds it by name or email. Totals do not change.
 * - Not copied elsewhere: returns, fulfillment orders, alerts and cancellation requests hold ids, quantities
 *   and the seller's own words; v2 views read the order row at request time. Job payloads and callback bodies
 *   carry ids only. Idempotency keys' stored answers (which may echo an order) expire within 24 hours
 *   (idempotency-sweep.ts) and are left to expire: deleting them would change a retried request's answer.
 * Bounded by the caller: it passes at most a batch of ids (REDACTION_BATCH).
 */
export async function redactOrdersPersonalData(tx: Tx, accountId: number, orderIds: readonly number[], now: Date): Promise<number[]> {
  if (orderIds.length === 0) return [];
  const orders = await tx
    .selectFrom('sales_orders')
    .select(['id', 'shipping_address', 'billing_address'])
    .where(accountFilterById(accountId))
    .where('id', 'in', [...orderIds])
    .where('personal_data_redacted_ts', 'is', null)
    .execute();
  if (orders.length === 0) return [];
  const iso = now.toISOString();
  // One UPDATE … FROM (VALUES …) for the batch: each order's addresses cut to their country (done here, in
  // JavaScript), conditional on the stamp still being null, so of two concurrent redactions one does the work
  // and the ids it answers are the orders this call redacted.
  const addresses = orders.map(
    (o) => sql`(cast(${o.id} as bigint), cast(${redactedAddress(o.shipping_address)} as text), cast(${redactedAddress(o.billing_address)} as text))`,
  );
  const redacted = await tx
    .with('v(id, ship, bill)', () => sql<{ id: number; ship: string | null; bill: string | null }>`(values ${sql.join(addresses)})`)
    .updateTable('sales_orders')
    .from('v')
    .set({
      customer_name: null,
      customer_email: null,
      customer_notes: null,
      shipping_address: sql<string | null>`${sql.ref('v.ship')}`,
      billing_address: sql<string | null>`${sql.ref('v.bill')}`,
      personal_data_redacted_ts: iso,
    })
    .where('sales_orders.account_id', '=', accountId)
    .whereRef('sales_orders.id', '=', 'v.id')
    .where('sales_orders.personal_data_redacted_ts', 'is', null)
    .returning('sales_orders.id')
    .execute();
  const ids = redacted.map((r) => Number(r.id)).sort((a, b) => a - b);
  if (ids.length === 0) return [];
  await tx
    .updateTable('sales_order_lines')
    .set({ gift_wrap_message: null })
    .where('account_id', '=', accountId)
    .where('order_id', 'in', ids)
    .where('gift_wrap_message', 'is not', null)
    .execute();
  const packages = await tx
    .selectFrom('sales_order_packages')
    .select(['id', 'shipped_to'])
    .where('account_id', '=', accountId)
    .where('order_id', 'in', ids)
    .where('shipped_to', 'is not', null)
    .execute();
  if (packages.length > 0) {
    const shippedTo = packages.map((p) => sql`(cast(${p.id} as bigint), cast(${redactedAddress(p.shipped_to)} as text))`);
    await tx
      .with('v(id, shipped_to)', () => sql<{ id: number; shipped_to: string | null }>`(values ${sql.join(shippedTo)})`)
      .updateTable('sales_order_packages')
      .from('v')
      .set({ shipped_to: sql<string | null>`${sql.ref('v.shipped_to')}` })
      .where('sales_order_packages.account_id', '=', accountId)
      .whereRef('sales_order_packages.id', '=', 'v.id')
      .execute();
  }
  await rebuildSearchTerms(tx, accountId, ids);
  return ids;
}

/** Search-term rows per INSERT: 3 parameters each, far below both databases' limits. */
const TERMS_PER_INSERT = 1000;

/**
 * rebuildOrderSearch for a batch: the terms of the (now cleared) orders are deleted and written again from what
 * the orders hold, in a handful of statements instead of five per order.
 */
async function rebuildSearchTerms(tx: Tx, accountId: number, ids: readonly number[]): Promise<void> {
  await tx.deleteFrom('sales_order_search_terms').where('account_id', '=', accountId).where('order_id', 'in', [...ids]).execute();
  const [orders, lines] = await Promise.all([
    tx
      .selectFrom('sales_orders')
      .select(['id', 'channel_order_id', 'channel_order_reference_number', 'customer_name', 'customer_email', 'shipping_address'])
      .where(accountFilterById(accountId))
      .where('id', 'in', [...ids])
      .execute(),
    tx
      .selectFrom('sales_order_lines')
      .select(['order_id', 'requested_sku', 'sku', 'quantity', 'unit_price'])
      .where('account_id', '=', accountId)
      .where('order_id', 'in', [...ids])
      .execute(),
  ]);
  const linesOf = new Map<number, SearchableLine[]>();
  for (const l of lines) {
    const list = linesOf.get(l.order_id) ?? [];
    list.push(l);
    linesOf.set(l.order_id, list);
  }
  const rows = orders.flatMap((o) => orderSearchTerms(o, linesOf.get(o.id) ?? []).map((term) => ({ account_id: accountId, term, order_id: o.id })));
  for (let i = 0; i < rows.length; i += TERMS_PER_INSERT) {
    await tx
      .insertInto('sales_order_search_terms')
      .values(rows.slice(i, i + TERMS_PER_INSERT))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
