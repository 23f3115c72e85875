import type { CompiledQuery } from 'kysely';
import { argRow, compiledBySize, compiledStatement, everyColumn, rowArgsOf, runEach } from '../../db/fast-paths.js';
import type { Db, Tx } from '../../db/tx.js';
import { twentyDigits } from '../../lib/decimal.js';
import { MAX_TERM_LENGTH, searchWords } from '../search-terms.js';

/**
 * The seller's order search (console, issue 24). Every order's searchable words are terms in
 * sales_order_search_terms (account_id, term, order_id): its order number, channel order id and reference
 * number, the customer's and the ship-to's name and email, and its lines' SKUs. A search word matches a term it
 * starts ("jan smi" finds Jane Smith, "abc-1" finds SKU ABC-100), read as a range on the primary key
 * (term >= word and term < word + U+10FFFF, byte order on both databases: BINARY on SQLite, COLLATE "C" on
 * PostgreSQL), so the same plain B-tree serves both and a search costs a few index ranges.
 *
 * Personal data (names, emails) is in the index only as these terms, written from the order's own columns.
 * rebuildOrderSearch rewrites an order's terms from what the order holds now: clearing an order's personal
 * columns and calling it removes them from the index too (the redaction of a later issue).
 *
 * sales_order_totals keeps each order's total (Σ quantity × unit price of its lines) to sort by total.
 * Both are written in the transaction that creates the order (create-order.ts); what they hold does not
 * change afterwards (lines' SKUs, quantities and prices are fixed at creation).
 */

const MAX_TERMS = 256;

export interface SearchableOrder {
  id: number;
  channel_order_id: string;
  channel_order_reference_number: string | null;
  customer_name: string | null;
  customer_email: string | null;
  /** JSON text of the ship-to address (its name and email are searched). */
  shipping_address: string | null;
}

export interface SearchableLine {
  requested_sku: string;
  sku: string | null;
  quantity: number;
  unit_price: string | null;
}

function shipToNameAndEmail(json: string | null): string[] {
  if (!json) return [];
  try {
    const address = JSON.parse(json) as Record<string, unknown> | null;
    return [address?.name, address?.email].filter((v): v is string => typeof v === 'string');
  } catch {
    return [];
  }
}

/** An order's terms: each word, and for identifiers (ids, SKUs) also their words run together ("abc100"). */
export function orderSearchTerms(order: SearchableOrder, lines: readonly SearchableLine[]): string[] {
  const terms = new Set<string>([String(order.id)]);
  const identifier = (value: string | null) => {
    if (!value) return;
    const words = searchWords(value);
    for (const w of words) terms.add(w);
    if (words.length > 1) terms.add(words.join('').slice(0, MAX_TERM_LENGTH));
  };
  const text = (value: string | null) => {
    if (value) for (const w of searchWords(value)) terms.add(w);
  };
  identifier(order.channel_order_id);
  identifier(order.channel_order_reference_number);
  text(order.customer_name);
  text(order.customer_email);
  for (const value of shipToNameAndEmail(order.shipping_address)) text(value);
  for (const line of lines) {
    identifier(line.requested_sku);
    if (line.sku !== line.requested_sku) identifier(line.sku);
  }
  return [...terms].slice(0, MAX_TERMS);
}

/**
 * The order list's Total: Σ quantity × unit price over the lines that have a price; null when none has. To 20
 * significant digits, as it has always been computed (twentyDigits in src/lib/decimal.ts).
 */
export function linesTotal(lines: readonly Pick<SearchableLine, 'quantity' | 'unit_price'>[]): string | null {
  let total: string | null = null;
  for (const l of lines) if (l.unit_price !== null) total = twentyDigits.add(total ?? '0', twentyDigits.multiply(l.unit_price, l.quantity));
  return total;
}

/** What the order list sorts by as its total: the list's Total, 0 when no line has a price. */
export function orderSortTotal(lines: readonly SearchableLine[]): string {
  return linesTotal(lines) ?? '0';
}

interface TermRow {
  account_id: number;
  term: string;
  order_id: number;
}

/** The search rows of many orders at once (the migration's backfill, the benchmarks' bulk seeding). */
export function orderSearchRows(
  accountId: number,
  orders: readonly SearchableOrder[],
  lines: readonly (SearchableLine & { order_id: number })[],
): { terms: TermRow[]; totals: { account_id: number; order_id: number; total: string }[] } {
  const linesOf = new Map<number, SearchableLine[]>();
  for (const l of lines) {
    const id = Number(l.order_id);
    const list = linesOf.get(id) ?? [];
    list.push({ requested_sku: l.requested_sku, sku: l.sku, quantity: Number(l.quantity), unit_price: l.unit_price });
    linesOf.set(id, list);
  }
  const terms: TermRow[] = [];
  const totals: { account_id: number; order_id: number; total: string }[] = [];
  for (const o of orders) {
    const id = Number(o.id);
    const orderLines = linesOf.get(id) ?? [];
    for (const term of orderSearchTerms({ ...o, id }, orderLines)) terms.push({ account_id: accountId, term, order_id: id });
    totals.push({ account_id: accountId, order_id: id, total: orderSortTotal(orderLines) });
  }
  return { terms, totals };
}
const TERM_COLUMNS = everyColumn<TermRow>()(['account_id', 'term', 'order_id']);
const insertTerms = compiledBySize<never, Record<string, unknown>>((db, arg, n) =>
  db
    .insertInto('sales_order_search_terms')
    .values(Array.from({ length: n }, (_, i) => argRow<TermRow>(arg, i, TERM_COLUMNS)))
    .onConflict((oc) => oc.doNothing()),
);
const upsertTotal = compiledStatement<never, { accountId: number; orderId: number; total: string }>((db, arg) =>
  db
    .insertInto('sales_order_totals')
    .values({ account_id: arg<number>('accountId'), order_id: arg<number>('orderId'), total: arg('total') })
    .onConflict((oc) => oc.columns(['account_id', 'order_id']).doUpdateSet({ total: arg('total') })),
);

/** Indexes an order for the search and the total sort (in the transaction that writes it). */
export async function writeOrderSearch(tx: Db, accountId: number, order: SearchableOrder, lines: readonly SearchableLine[]): Promise<void> {
  await runEach(tx, orderSearchWrites(tx, accountId, order, lines));
}

/**
 * writeOrderSearch's statements, to run with another write (a new order's: src/db/companion-writes.ts): its
 * terms and its total, each a table of its own.
 */
export function orderSearchWrites(tx: Db, accountId: number, order: SearchableOrder, lines: readonly SearchableLine[]): CompiledQuery[] {
  const rows = orderSearchTerms(order, lines).map((term) => ({ account_id: accountId, term, order_id: order.id }));
  return [
    ...(rows.length > 0 ? [insertTerms.bound(tx, rows.length, rowArgsOf(rows, TERM_COLUMNS))] : []),
    upsertTotal.bound(tx, { accountId, orderId: order.id, total: orderSortTotal(lines) }),
  ];
}

/**
 * Rewrites an order's terms and total from what the order and its lines hold now: after its personal data
 * was cleared (redaction), the index no longer finds the order by it.
 */
export async function rebuildOrderSearch(tx: Tx, accountId: number, orderId: number): Promise<void> {
  await tx.deleteFrom('sales_order_search_terms').where('account_id', '=', accountId).where('order_id', '=', orderId).execute();
  const order = await tx
    .selectFrom('sales_orders')
    .select(['id', 'channel_order_id', 'channel_order_reference_number', 'customer_name', 'customer_email', 'shipping_address'])
    .where('account_id', '=', accountId)
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order) {
    await tx.deleteFrom('sales_order_totals').where('account_id', '=', accountId).where('order_id', '=', orderId).execute();
    return;
  }
  const lines = await tx
    .selectFrom('sales_order_lines')
    .select(['requested_sku', 'sku', 'quantity', 'unit_price'])
    .where('account_id', '=', accountId)
    .where('order_id', '=', orderId)
    .execute();
  await writeOrderSearch(tx, accountId, order, lines);
}
