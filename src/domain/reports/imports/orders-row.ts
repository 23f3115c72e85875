import { parseDateOrTimestamp } from '../../../lib/time.js';
import { MAX_ID_LENGTH, MAX_NAME_LENGTH, longerThan } from '../../text-limits.js';
import type { CustomStoreView } from '../../accounts/custom-stores.js';
import { isPlainDecimal, normalizeDecimal } from '../../../lib/decimal.js';
import { clip, lineError, parseWholeNumber, skuProblem } from './cells.js';
import type { GroupMemory } from './line-groups.js';
import type { LineError } from './types.js';

/**
 * The columns of an Orders file (resolutions §8) and the checks of one line on its own. One line is one
 * order line; the order-level columns repeat on every line of the order (or are left blank after its
 * first line), so they are compared across the order's lines later, in orders.ts.
 */

/** Order-level columns: read from the order's first line. */
export const ORDER_COLUMNS = [
  'order_ts',
  'customer_name',
  'customer_email',
  'ship_name',
  'ship_address1',
  'ship_address2',
  'ship_city',
  'ship_state',
  'ship_postal_code',
  'ship_country',
  'requested_service_level',
] as const;
export type OrderColumn = (typeof ORDER_COLUMNS)[number];
export const COLUMNS = ['channel_order_id', ...ORDER_COLUMNS, 'sku', 'quantity', 'unit_price'] as const;
export type Column = (typeof COLUMNS)[number];
export const REQUIRED_COLUMNS = ['channel_order_id', 'order_ts', 'sku', 'quantity'] as const;
/** An address needs these when any ship_* cell is filled (as shippingAddress in POST /v1/salesOrder). */
export const REQUIRED_ADDRESS_COLUMNS = ['ship_name', 'ship_address1', 'ship_city', 'ship_postal_code'] as const;
export const SHIP_COLUMNS = ORDER_COLUMNS.filter((c) => c.startsWith('ship_'));
/** The limits of POST /v1/salesOrder's body (src/http/schemas/sales-orders-v1.ts). */
export const MAX_ORDER_LINES = 500;
const MAX_LINE_QUANTITY = 1_000_000;

export interface OrdersPlan {
  index: Partial<Record<Column, number>>;
  header: string[];
  store: CustomStoreView;
  memory: GroupMemory;
}

export interface OrderLineRow {
  channelOrderId: string;
  /** Order-level cells, trimmed ('' when blank); order_ts as an ISO instant when it reads as one. */
  fields: Record<OrderColumn, string>;
  /** The same cells as written, for messages. */
  written: Record<OrderColumn, string>;
  sku: string;
  quantity: number;
  unitPrice: string | null;
  /** Problems of this line alone; kept on the row so the line still belongs to its order's group. */
  errors: LineError[];
}

export function headerOf(plan: OrdersPlan, c: Column): string {
  return plan.index[c] === undefined ? c : plan.header[plan.index[c]!]!;
}


const maxLengthOf = (c: OrderColumn) => (c === 'ship_postal_code' ? MAX_ID_LENGTH : MAX_NAME_LENGTH);

export function parseOrderLine(plan: OrdersPlan, cells: string[], line: number): { row: OrderLineRow } | { errors: LineError[] } {
  const cell = (c: Column) => (plan.index[c] === undefined ? '' : (cells[plan.index[c]!] ?? '').trim());
  const header = (c: Column) => headerOf(plan, c);
  const channelOrderId = cell('channel_order_id');
  // Without an order id the line belongs to no order: it is refused on its own.
  if (channelOrderId === '') return { errors: [lineError(line, header('channel_order_id'), 'channel_order_id is required')] };
  if (longerThan(channelOrderId, MAX_ID_LENGTH)) return { errors: [lineError(line, header('channel_order_id'), `channel_order_id is longer than ${MAX_ID_LENGTH} characters`)] };

  const errors: LineError[] = [];
  const fields = {} as Record<OrderColumn, string>;
  const written = {} as Record<OrderColumn, string>;
  for (const c of ORDER_COLUMNS) {
    const value = cell(c);
    fields[c] = value;
    written[c] = value;
    if (value === '') continue;
    if (longerThan(value, maxLengthOf(c))) errors.push(lineError(line, header(c), `${c} is longer than ${maxLengthOf(c)} characters`));
  }
  if (fields.order_ts !== '') {
    const ts = parseDateOrTimestamp(fields.order_ts);
    if (ts) fields.order_ts = ts.toISOString();
    else errors.push(lineError(line, header('order_ts'), `order_ts "${clip(fields.order_ts)}" is not an RFC 3339 timestamp with a time zone (2026-11-21T22:13:08Z) or a date (2026-11-21)`));
  }
  if (fields.ship_country !== '' && [...fields.ship_country].length !== 2) {
    errors.push(lineError(line, header('ship_country'), `ship_country must be exactly 2 characters (e.g. US), got "${clip(fields.ship_country)}"`));
  }

  const sku = cell('sku');
  const skuError = skuProblem(sku);
  if (skuError) errors.push(lineError(line, header('sku'), `sku ${skuError}`));
  const quantity = parseWholeNumber(cell('quantity'), 1, MAX_LINE_QUANTITY);
  if ('error' in quantity) errors.push(lineError(line, header('quantity'), `quantity ${quantity.error}`));
  const price = cell('unit_price');
  if (price !== '' && !isPlainDecimal(price)) errors.push(lineError(line, header('unit_price'), `unit_price "${clip(price)}" is not a decimal number (e.g. 12.50)`));
  return {
    row: {
      channelOrderId,
      fields,
      written,
      sku,
      quantity: 'value' in quantity ? quantity.value : 0,
      unitPrice: price === '' || !isPlainDecimal(price) ? null : normalizeDecimal(price),
      errors,
    },
  };
}
