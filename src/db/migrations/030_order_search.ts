import { sql, type Kysely } from 'kysely';
import { orderSearchRows, type SearchableLine, type SearchableOrder } from '../../domain/orders/order-search.js';
import type { MigrationContext } from './index.js';

/**
 * The console's order list (issue 24): search, status tabs with counts, sort by date or total, paging both ways.
 *
 * - sales_order_search_terms (account_id, term, order_id): the words an order is found by, matched by prefix
 *   on the primary key (src/domain/orders/order-search.ts). A plain B-tree on both databases, byte-ordered
 *   (COLLATE "C" on PostgreSQL, SQLite's BINARY) so a prefix is one range; (account_id, order_id, term) tests
 *   one order while a sorted index is walked. No extension (FTS5, pg_trgm) to be present or created.
 * - sales_order_totals (account_id, order_id, total) with (account_id, total, order_id): the sort by total.
 * - sales_orders (account_id, order_ts, id): the sort by order date; (account_id, status, order_ts, id): the
 *   tabs' capped counts and their orders when a tab holds few.
 * - order_line_routes (account_id, order_id) where backorder_quantity > 0: the backordered tab (the lines'
 *   sales_order_lines_unrouted of 026 covers unrouted units).
 *
 * Existing orders are indexed in bounded batches: orders walked by primary key (a keyset on id), each batch's
 * lines read per account through the account-led index, the rows written in multi-row inserts.
 */

const BATCH = 500;
/** Rows per INSERT: 3 columns each, well under SQLite's and PostgreSQL's parameter limits. */
const ROWS_PER_INSERT = 500;

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  const termType = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable('sales_order_search_terms')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('term', termType, (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('sales_order_search_terms_pk', ['account_id', 'term', 'order_id'])
    .$call((t) => (dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t))
    .execute();
  await db.schema.createIndex('sales_order_search_terms_order').on('sales_order_search_terms').columns(['account_id', 'order_id', 'term']).execute();
  await db.schema
    .createTable('sales_order_totals')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull())
    .addColumn('total', 'numeric', (c) => c.notNull())
    .addPrimaryKeyConstraint('sales_order_totals_pk', ['account_id', 'order_id'])
    .execute();
  await db.schema.createIndex('sales_order_totals_total').on('sales_order_totals').columns(['account_id', 'total', 'order_id']).execute();
  await db.schema.createIndex('sales_orders_ordered').on('sales_orders').columns(['account_id', 'order_ts', 'id']).execute();
  await db.schema.createIndex('sales_orders_status').on('sales_orders').columns(['account_id', 'status', 'order_ts', 'id']).execute();
  await db.schema
    .createIndex('order_line_routes_backordered_orders')
    .on('order_line_routes')
    .columns(['account_id', 'order_id'])
    .where(sql<boolean>`backorder_quantity > 0`)
    .execute();
  await buildOrderSearch(db, BATCH);
}

interface OrderRow extends SearchableOrder {
  account_id: number;
}
interface LineRow extends SearchableLine {
  order_id: number;
}

/** Indexes every stored order (the migration's work; the batch size apart so a test can walk several batches). */
export async function buildOrderSearch(db: Kysely<any>, batchSize: number): Promise<void> {
  let after = 0;
  for (;;) {
    const orders = (await db
      .selectFrom('sales_orders')
      .select(['id', 'account_id', 'channel_order_id', 'channel_order_reference_number', 'customer_name', 'customer_email', 'shipping_address'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(batchSize)
      .execute()) as OrderRow[];
    if (orders.length === 0) return;
    after = Number(orders[orders.length - 1]!.id);
    const byAccount = new Map<number, OrderRow[]>();
    for (const o of orders) byAccount.set(Number(o.account_id), [...(byAccount.get(Number(o.account_id)) ?? []), o]);
    for (const [accountId, accountOrders] of byAccount) await indexBatch(db, accountId, accountOrders);
  }
}

async function indexBatch(db: Kysely<any>, accountId: number, orders: OrderRow[]): Promise<void> {
  const lines = (await db
    .selectFrom('sales_order_lines')
    .select(['order_id', 'requested_sku', 'sku', 'quantity', 'unit_price'])
    .where('account_id', '=', accountId)
    .where(
      'order_id',
      'in',
      orders.map((o) => Number(o.id)),
    )
    .execute()) as LineRow[];
  const { terms, totals } = orderSearchRows(accountId, orders, lines);
  for (let i = 0; i < terms.length; i += ROWS_PER_INSERT) {
    await db
      .insertInto('sales_order_search_terms')
      .values(terms.slice(i, i + ROWS_PER_INSERT))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  for (let i = 0; i < totals.length; i += ROWS_PER_INSERT) {
    await db
      .insertInto('sales_order_totals')
      .values(totals.slice(i, i + ROWS_PER_INSERT))
      .onConflict((oc) => oc.columns(['account_id', 'order_id']).doUpdateSet((eb) => ({ total: eb.ref('excluded.total') })))
      .execute();
  }
}
