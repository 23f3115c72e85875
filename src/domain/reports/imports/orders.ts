import type { Db, Tx } from '../../../db/tx.js';
import { inSavepoint } from '../../../db/fast-paths.js';
import { findCustomStoreOrDefault } from '../../accounts/custom-stores.js';
import { sellerPrincipalFor } from '../../accounts/principal.js';
import { AppError } from '../../errors.js';
import { fulfillmentPort } from '../../fulfillment/port.js';
import { createSalesOrder, type CreateOrderInput } from '../../orders/create-order.js';
import { validateCreateInput } from '../../orders/order-input.js';
import { clip, lineError } from './cells.js';
import { mapHeader } from './header-map.js';
import { addError, consecutiveGroups, GroupMemory, refuseGroup, type LineGroup } from './line-groups.js';
import {
  COLUMNS,
  headerOf,
  MAX_ORDER_LINES,
  ORDER_COLUMNS,
  parseOrderLine,
  REQUIRED_ADDRESS_COLUMNS,
  REQUIRED_COLUMNS,
  SHIP_COLUMNS,
  type OrderLineRow,
  type OrdersPlan,
} from './orders-row.js';
import type { ImportContext, ImportKind, LineError } from './types.js';

/**
 * Orders import (resolutions §8): the seller's orders into one of its custom stores (document 2.6), the
 * report's integrationId (the default store when the report named none). Each order goes through
 * createSalesOrder exactly as POST /v1/salesOrder with integrationId: routing, reservations, fulfillment
 * work, channel = the store's name, unknown SKUs kept unrouted. An order is created whole or not at all,
 * and never twice: one already in the store (same channel_order_id) is left unchanged and its lines are
 * refused, so uploading a file again duplicates nothing and tells the seller which orders were there.
 */
export const ordersImport: ImportKind<OrdersPlan, OrderLineRow> = {
  type: 'Orders',

  async prepare(db, ctx, header) {
    const { index, unknown, duplicates, actual } = mapHeader(header, COLUMNS, { order_id: 'channel_order_id', order_date: 'order_ts', unit_cost: 'unit_price', price: 'unit_price' });
    const missing = REQUIRED_COLUMNS.filter((c) => index[c] === undefined);
    if (missing.length > 0) return { ok: false, error: `the header has no ${missing.join(' or ')} column; an Orders file needs channel_order_id, order_ts, sku and quantity` };
    if (duplicates.length > 0) return { ok: false, error: `the header names the same column twice: ${duplicates.join(', ')}` };
    let store;
    try {
      // Resolved when the report was created; read again because the job may run much later.
      store = await findCustomStoreOrDefault(db, ctx.accountId, ctx.integrationId);
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error: `the orders cannot be stored: ${error.message}` };
      throw error;
    }
    const notes = unknown.map((h) => lineError(1, h, `not an Orders column; ignored (columns: ${COLUMNS.join(', ')})`));
    return { ok: true, plan: { index, header, store, memory: new GroupMemory() }, actualHeaders: actual, notes };
  },

  parseLine: parseOrderLine,

  groupKey: (row) => row.channelOrderId,
  refuseRow: (row, errors) => ({ ...row, errors: [...row.errors, ...errors] }),

  async processChunk(db, ctx, plan, lines, apply) {
    const idColumn = headerOf(plan, 'channel_order_id');
    const groups = consecutiveGroups(lines, (r) => r.channelOrderId);
    const existing = await existingOrders(db, ctx.accountId, plan.store.integrationId, [...new Set(groups.map((g) => g.key))]);
    const errors: LineError[] = [];
    for (const group of groups) {
      const first = group.lines[0]!.line;
      const firstOfOrder = plan.memory.firstLineOf(group.key, first);
      if (firstOfOrder !== first) {
        const message = `the lines of order "${clip(group.key)}" must be consecutive: the order starts at line ${firstOfOrder}, and these later lines are refused`;
        errors.push(...group.lines.map((l) => lineError(l.line, idColumn, message)));
        continue;
      }
      const orderNumber = existing.get(group.key);
      if (orderNumber !== undefined) {
        errors.push(...group.lines.map((l) => lineError(l.line, idColumn, alreadyThere(plan, group.key, orderNumber))));
        continue;
      }
      const own = checkOrder(plan, group);
      const input = orderInput(plan, group);
      if (own.size === 0) {
        // The checks of POST /v1/salesOrder's own validation, as a backstop to the per-column ones above.
        try {
          validateCreateInput(input);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          addError(own, lineError(first, idColumn, error.message));
        }
      }
      if (own.size > 0) {
        errors.push(...refuseGroup(group, own, idColumn, (bad) => `order "${clip(group.key)}" is not created: line ${bad} has an error, and an order's lines are created together`));
        continue;
      }
      if (!apply) continue;
      const refusal = await createOrder(db, ctx, plan, input, group.key);
      if (refusal) errors.push(...group.lines.map((l) => lineError(l.line, idColumn, refusal)));
    }
    return errors;
  },
};

function alreadyThere(plan: OrdersPlan, channelOrderId: string, orderNumber: string): string {
  return `order "${clip(channelOrderId)}" already exists in custom store "${clip(plan.store.name)}" (order number ${orderNumber}); it is left unchanged`;
}

/** channel_order_id → order number of the orders of the store among `ids`. */
async function existingOrders(db: Db, accountId: number, storeId: number, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('sales_orders')
    .select(['id', 'channel_order_id'])
    .where('account_id', '=', accountId)
    .where('channel_key', '=', storeChannelKey(storeId))
    .where('channel_order_id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.channel_order_id, String(r.id)]));
}

/** The channel key createSalesOrder files a custom store's orders under (one channelOrderId per store). */
const storeChannelKey = (storeId: number) => `cs:${storeId}`;

/** Problems of the order as a whole and of each line, by line; empty when the order can be created. */
function checkOrder(plan: OrdersPlan, group: LineGroup<OrderLineRow>): Map<number, LineError[]> {
  const own = new Map<number, LineError[]>();
  for (const { row } of group.lines) for (const e of row.errors) addError(own, e);
  const [head, ...rest] = group.lines;
  const order = head!.row.fields;
  const at = (line: number, c: (typeof COLUMNS)[number], message: string) => addError(own, lineError(line, headerOf(plan, c), message));
  if (group.lines.length > MAX_ORDER_LINES) {
    for (const { line } of group.lines) at(line, 'channel_order_id', `order "${clip(group.key)}" has ${group.lines.length} lines; an order has at most ${MAX_ORDER_LINES}`);
  }
  if (order.order_ts === '') at(head!.line, 'order_ts', "order_ts is required on the order's first line");
  if (SHIP_COLUMNS.some((c) => order[c] !== '')) {
    for (const c of REQUIRED_ADDRESS_COLUMNS) if (order[c] === '') at(head!.line, c, `${c} is required when the order has a shipping address`);
  }
  for (const { line, row } of rest) {
    for (const c of ORDER_COLUMNS) {
      const value = row.fields[c];
      if (value === '' || value === order[c]) continue;
      const expected = order[c] === '' ? "is blank on the order's first line" : `is "${clip(head!.row.written[c])}" on the order's first line`;
      at(line, c, `${c} "${clip(row.written[c])}" disagrees with the order: it ${expected} (line ${head!.line}); order-level cells repeat that value or stay blank`);
    }
  }
  return own;
}

/** The POST /v1/salesOrder body the order's lines make: order-level fields from its first line. */
function orderInput(plan: OrdersPlan, group: LineGroup<OrderLineRow>): CreateOrderInput {
  const f = group.lines[0]!.row.fields;
  const opt = (value: string) => (value === '' ? null : value);
  const hasAddress = SHIP_COLUMNS.some((c) => f[c] !== '');
  return {
    channelOrderId: group.key,
    orderTs: f.order_ts,
    integrationId: plan.store.integrationId,
    customerName: opt(f.customer_name),
    customerEmail: opt(f.customer_email),
    requestedServiceLevel: opt(f.requested_service_level),
    shippingAddress: hasAddress
      ? {
          name: f.ship_name,
          addressLine1: f.ship_address1,
          addressLine2: opt(f.ship_address2),
          city: f.ship_city,
          state: opt(f.ship_state),
          postalCode: f.ship_postal_code,
          countryCode: opt(f.ship_country),
        }
      : null,
    products: group.lines.map(({ row }) => ({ requestedSku: row.sku, quantity: row.quantity, unitPrice: row.unitPrice })),
  };
}


/** Creates the order; the reason when it was not created (its writes are then rolled back). */
async function createOrder(db: Db, ctx: ImportContext, plan: OrdersPlan, input: CreateOrderInput, channelOrderId: string): Promise<string | null> {
  try {
    // processChunk runs inside the chunk's transaction when it applies (types.ts), so db is that Tx.
    const result = await inSavepoint(db, () => createSalesOrder(db as Tx, sellerPrincipalFor(ctx.accountId), input, ctx.now, fulfillmentPort), () => true);
    // Another writer stored the same order since the check above: it stays as that writer left it.
    return result.created ? null : alreadyThere(plan, channelOrderId, result.order.orderNumber);
  } catch (error) {
    if (error instanceof AppError) return `order "${clip(channelOrderId)}" is not created: ${error.message}`;
    throw error;
  }
}
