import type { Kysely } from 'kysely';
import { accountingFacts } from '../../domain/orders/refund-totals.js';
import { deriveStatuses } from '../../domain/orders/status.js';
import type { MigrationContext } from './index.js';

/**
 * Order statuses follow resolutions §6 as decided by its third review (issue 23): fulfillment first, the
 * after-sale states only once no unit is owed, REFUNDED only when refunds add up to the order's total.
 * Orders stored under the earlier rule may show REFUNDED or RETURN_REQUESTED while they still owe units;
 * this recomputes every stored order's and line's status.
 *
 * It reuses the domain's pure derivation (deriveStatuses) rather than a copy: the point is that stored
 * statuses equal what recomputeOrderStatus writes on the order's next change, and that rule is the one
 * the service applies from this version on. An order whose status or a line's changes gets
 * last_updated_ts = now (never backwards), so channels listing by lastUpdatedTs pick the correction up.
 *
 * Bounded: orders are walked by primary key in batches (a keyset on id, cheap on both databases, no
 * OFFSET); each batch reads its lines and open returns per account through the account-led indexes.
 */

const BATCH = 500;

interface OrderRow {
  id: number;
  account_id: number;
  status: string;
  paid: number;
  accounting: string | null;
  last_updated_ts: string;
}

interface LineRow {
  id: number;
  order_id: number;
  status: string;
  quantity: number;
  cancel_quantity: number;
  shipped_quantity: number;
  returned_quantity: number;
  unit_price: string | null;
  refund: string | null;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await recomputeStoredStatuses(db, BATCH, new Date());
}

/** The migration's work, with the batch size apart so a test can walk several batches with a few orders. */
export async function recomputeStoredStatuses(db: Kysely<any>, batchSize: number, at: Date): Promise<void> {
  const now = at.toISOString();
  let after = 0;
  for (;;) {
    const orders = (await db
      .selectFrom('sales_orders')
      .select(['id', 'account_id', 'status', 'paid', 'accounting', 'last_updated_ts'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(batchSize)
      .execute()) as OrderRow[];
    if (orders.length === 0) return;
    after = Number(orders[orders.length - 1]!.id);
    const byAccount = new Map<number, OrderRow[]>();
    for (const o of orders) byAccount.set(Number(o.account_id), [...(byAccount.get(Number(o.account_id)) ?? []), o]);
    for (const [accountId, accountOrders] of byAccount) await recomputeBatch(db, accountId, accountOrders, now);
  }
}

async function recomputeBatch(db: Kysely<any>, accountId: number, orders: OrderRow[], now: string): Promise<void> {
  const ids = orders.map((o) => Number(o.id));
  const [lines, openReturnLines] = await Promise.all([
    db
      .selectFrom('sales_order_lines')
      .select(['id', 'order_id', 'status', 'quantity', 'cancel_quantity', 'shipped_quantity', 'returned_quantity', 'unit_price', 'refund'])
      .where('account_id', '=', accountId)
      .where('order_id', 'in', ids)
      .orderBy('order_id')
      .orderBy('position')
      .execute() as Promise<LineRow[]>,
    db
      .selectFrom('sales_order_return_items as i')
      .innerJoin('sales_order_returns as r', 'r.id', 'i.return_id')
      .select('i.line_id')
      .where('r.account_id', '=', accountId)
      .where('i.account_id', '=', accountId)
      .where('r.order_id', 'in', ids)
      .where('r.cancelled', '=', 0)
      .where('r.received_ts', 'is', null)
      .execute() as Promise<{ line_id: number }[]>,
  ]);
  const openLines = new Set(openReturnLines.map((r) => Number(r.line_id)));
  const linesOf = new Map<number, LineRow[]>();
  for (const l of lines) linesOf.set(Number(l.order_id), [...(linesOf.get(Number(l.order_id)) ?? []), l]);

  for (const order of orders) {
    const orderLines = linesOf.get(Number(order.id)) ?? [];
    const derived = deriveStatuses({
      paid: Number(order.paid) === 1,
      ...accountingFacts(order.accounting),
      lines: orderLines.map((l) => ({
        quantity: Number(l.quantity),
        cancelQuantity: Number(l.cancel_quantity),
        shippedQuantity: Number(l.shipped_quantity),
        returnedQuantity: Number(l.returned_quantity),
        unitPrice: l.unit_price,
        refund: l.refund,
        onOpenReturn: openLines.has(Number(l.id)),
      })),
    });
    let changed = order.status !== derived.order;
    for (const [i, line] of orderLines.entries()) {
      if (line.status === derived.lines[i]) continue;
      changed = true;
      await db
        .updateTable('sales_order_lines')
        .set({ status: derived.lines[i], updated_at: now })
        .where('account_id', '=', accountId)
        .where('id', '=', line.id)
        .execute();
    }
    if (!changed) continue;
    await db
      .updateTable('sales_orders')
      .set({ status: derived.order, ...(now > order.last_updated_ts ? { last_updated_ts: now } : {}) })
      .where('account_id', '=', accountId)
      .where('id', '=', order.id)
      .execute();
  }
}
