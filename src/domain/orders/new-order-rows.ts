import { sql, type Selectable } from 'kysely';
import { argRow, compiledBySize, compiledStatement, everyColumn, rowArgsOf, sendWithoutWaiting } from '../../db/fast-paths.js';
import { isPostgres } from '../../db/dialect.js';
import type { SalesOrderLinesTable, SalesOrdersTable } from '../../db/schema.js';
import type { Tx } from '../../db/tx.js';

/**
 * The rows of a new order and its lines (create-order.ts). On PostgreSQL the order's insert also draws the ids
 * its lines will take from their sequence, so the lines' insert is not waited for (src/db/unanswered.ts) and
 * shares the round trip of the reservation behind it: a new order waits for two answers fewer than the
 * inserts' RETURNING would cost. SQLite has no round trips to save; its lines answer their ids as before.
 */

// closed_ts and personal_data_redacted_ts (038_personal_data) start null: recomputeOrderStatus and the redaction set them.
export type OrderInsert = Omit<Selectable<SalesOrdersTable>, 'id' | 'closed_ts' | 'personal_data_redacted_ts'>;
const ORDER_COLUMNS = everyColumn<OrderInsert>()([
  'account_id', 'storefront_id', 'channel_key', 'channel', 'channel_label', 'channel_order_id', 'channel_order_reference_number',
  'status', 'paid', 'paid_ts', 'cancellation_reason', 'customer_notes', 'marketplace_id', 'customer_name', 'customer_email',
  'order_ts', 'requested_service_level', 'standard_service_level', 'accounting', 'shipping_address', 'billing_address', 'fba',
  'channel_will_fulfill', 'prime', 'business_order', 'accepted_ts', 'created_at', 'last_updated_ts',
]);

type OrderRow = Selectable<SalesOrdersTable>;
export type OrderLineRow = Selectable<SalesOrderLinesTable>;

const insertOrder = compiledStatement<OrderRow & { line_ids?: number[] }, Record<string, unknown>>((db, arg) => {
  const insert = (qb: typeof db) =>
    qb
      .insertInto('sales_orders')
      .values(argRow<OrderInsert>(arg, 0, ORDER_COLUMNS))
      // A repeat, or a parallel create of the same channel order that won: nothing is inserted.
      .onConflict((oc) => oc.columns(['account_id', 'channel_key', 'channel_order_id']).doNothing())
      .returningAll();
  if (!isPostgres(db)) return insert(db);
  // No row inserted, no ids drawn: the array is computed per row of `o`.
  return db
    .with('o', (qb) => insert(qb as unknown as typeof db))
    .selectFrom('o')
    .selectAll('o')
    .select(sql<number[]>`array(select nextval(pg_get_serial_sequence('sales_order_lines', 'id'))::int from generate_series(1, ${arg('lineCount')}::int))`.as('line_ids'));
});

/** The inserted order, and on PostgreSQL the ids drawn for its lines; null when the channel order exists already. */
export async function insertNewOrder(tx: Tx, order: OrderInsert, lineCount: number): Promise<{ row: OrderRow; lineIds: number[] | null } | null> {
  const inserted = await insertOrder.first(tx, { ...rowArgsOf([order], ORDER_COLUMNS), lineCount });
  if (!inserted) return null;
  const { line_ids: lineIds, ...row } = inserted;
  return { row, lineIds: lineIds ?? null };
}

export type LineInsert = Omit<OrderLineRow, 'id'>;
const LINE_COLUMNS = everyColumn<LineInsert>()([
  'account_id', 'order_id', 'position', 'channel_line_item_id', 'status', 'requested_title', 'title', 'requested_sku', 'product_id',
  'sku', 'quantity', 'cancel_quantity', 'shipped_quantity', 'returned_quantity', 'unit_price', 'cost', 'total_weight',
  'package_dimensions', 'hazmat', 'refund', 'refund_reason', 'gift_wrap_message', 'gift_wrap_level', 'earliest_ship_by',
  'latest_ship_by', 'earliest_deliver_by', 'latest_deliver_by', 'requested_service_level', 'unrouted_quantity', 'created_at', 'updated_at',
]);
const insertLines = compiledBySize<OrderLineRow, Record<string, unknown>>((db, arg, n) =>
  db
    .insertInto('sales_order_lines')
    .values(Array.from({ length: n }, (_, i) => argRow<LineInsert>(arg, i, LINE_COLUMNS)))
    .returningAll(),
);
const LINE_COLUMNS_WITH_ID = everyColumn<OrderLineRow>()(['id', ...LINE_COLUMNS]);
const insertLinesWithIds = compiledBySize<never, Record<string, unknown>>((db, arg, n) =>
  db.insertInto('sales_order_lines').values(Array.from({ length: n }, (_, i) => argRow<OrderLineRow>(arg, i, LINE_COLUMNS_WITH_ID))),
);

/**
 * Inserts the lines, in position order. With the ids insertNewOrder drew (PostgreSQL), the rows are the ones
 * sent (every column is given) and the insert is not waited for; else the database answers them.
 */
export async function insertNewLines(tx: Tx, lines: readonly LineInsert[], lineIds: readonly number[] | null): Promise<OrderLineRow[]> {
  if (lines.length === 0) return [];
  if (lineIds === null) return (await insertLines.all(tx, lines.length, rowArgsOf(lines, LINE_COLUMNS))).sort((a, b) => a.position - b.position);
  if (lineIds.length !== lines.length) throw new Error(`insertNewLines: ${lineIds.length} ids drawn for ${lines.length} lines`);
  const rows = lines.map((line, i) => ({ id: lineIds[i]!, ...line })).sort((a, b) => a.position - b.position);
  await sendWithoutWaiting(tx, insertLinesWithIds.bound(tx, rows.length, rowArgsOf(rows, LINE_COLUMNS_WITH_ID)));
  return rows;
}
