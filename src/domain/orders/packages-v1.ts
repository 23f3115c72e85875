import type { Db, Tx } from '../../db/tx.js';
import { parseTimestamp } from '../../lib/time.js';
import type { Principal } from '../accounts/principal.js';
import { invalidField, isAppError, permissionDenied } from '../errors.js';
import { decimalInput } from '../decimal-input.js';
import { findVisibleOrder } from './find-order.js';
import { recordShipment } from './shipments.js';
import { orderViews, type OrderRow, type SalesOrderV1 } from './view.js';
import type { OrderScope } from './visibility.js';

/**
 * POST /v1/salesOrder/shipments (resolutions §3): up to 50 packages in one transaction, so one bad package
 * (a shippedTs before the order's orderTs or more than a day ahead included: ship-date.ts) fails the whole
 * call and changes nothing. Replay-safe on (orderNumber, fulfillmentPackageId): a package
 * already recorded is left as it is. Only packages with products mark lines shipped; a package without
 * products records carrier and tracking only.
 *
 * Who may ship: any token that sees the order (resolutions §2): a seller token with an order scope, the
 * storefront that sent the order, or a shipping/inventory/3PL integration, which may ship only from its
 * own mapped warehouses (another warehouse is a 403).
 */

type Decimal = number | string;

export interface V1PackageInput {
  orderNumber: string | number;
  fulfillmentPackageId: string | number;
  warehouseId: number;
  carrier: string;
  tracking: string;
  service_level: string;
  shippedTs?: string | null;
  cost?: Decimal | null;
  packageWeight?: Decimal | null;
  packageWeightUom?: string | null;
  dimensions?: { length?: Decimal | null; width?: Decimal | null; height?: Decimal | null } | null;
  shippedFrom?: Record<string, unknown> | null;
  shippedTo?: Record<string, unknown> | null;
  products?: { sku?: string | null; lineItemId?: string | number | null; quantity: number }[] | null;
}

interface LineRef {
  id: number;
  sku: string | null;
  requested_sku: string;
}

/** An order's lines indexed by id and by SKU, so resolving each package product costs a lookup, not a scan. */
interface OrderLines {
  byId: Map<string, LineRef>;
  /** Lines per SKU (its resolved SKU or the SKU the channel requested). */
  bySku: Map<string, LineRef[]>;
}

function indexLines(lines: LineRef[]): OrderLines {
  const byId = new Map<string, LineRef>();
  const bySku = new Map<string, LineRef[]>();
  for (const l of lines) {
    byId.set(String(l.id), l);
    for (const sku of new Set([l.sku, l.requested_sku])) {
      if (sku === null) continue;
      const list = bySku.get(sku);
      if (list) list.push(l);
      else bySku.set(sku, [l]);
    }
  }
  return { byId, bySku };
}

/** Resolves a package product to a line of the order: by lineItemId, or by a SKU that names one line. */
function lineOf(field: string, lines: OrderLines, product: { sku?: string | null; lineItemId?: string | number | null }): number {
  const byId = product.lineItemId !== undefined && product.lineItemId !== null && product.lineItemId !== '';
  if (byId) {
    const line = lines.byId.get(String(product.lineItemId));
    if (!line) throw invalidField(`${field}.lineItemId`, `${String(product.lineItemId)} is not a line item of this order`);
    if (product.sku && product.sku !== line.sku && product.sku !== line.requested_sku) {
      throw invalidField(`${field}.sku`, `${product.sku} is not the SKU of line item ${line.id}`);
    }
    return line.id;
  }
  if (!product.sku) throw invalidField(field, 'give sku or lineItemId');
  const matches = lines.bySku.get(product.sku) ?? [];
  if (matches.length === 0) throw invalidField(`${field}.sku`, `${product.sku} is not on this order`);
  if (matches.length > 1) throw invalidField(`${field}.sku`, `${product.sku} is on several lines of this order; give lineItemId`);
  return matches[0]!.id;
}

function json(value: Record<string, unknown> | null | undefined): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** Records every package; returns the orders touched (first appearance order) for the response. */
export async function recordV1Shipments(
  tx: Tx,
  principal: Principal,
  packages: V1PackageInput[],
  now: Date,
): Promise<{ orderNumbers: string[] }> {
  const accountWarehouses = new Set(
    (await tx.selectFrom('warehouses').select('id').where('account_id', '=', principal.accountId).execute()).map((w) => Number(w.id)),
  );
  const orders = new Map<string, { order: OrderRow; scope: OrderScope; lines: OrderLines }>();
  for (const [i, p] of packages.entries()) {
    const field = `packages[${i}]`;
    const orderNumber = String(p.orderNumber);
    let found = orders.get(orderNumber);
    if (!found) {
      const { order, scope } = await findVisibleOrder(tx, principal, orderNumber);
      const lines = await tx
        .selectFrom('sales_order_lines')
        .select(['id', 'sku', 'requested_sku'])
        .where('account_id', '=', principal.accountId)
        .where('order_id', '=', order.id)
        .orderBy('position')
        .execute();
      found = { order, scope, lines: indexLines(lines.map((l) => ({ ...l, id: Number(l.id) }))) };
      orders.set(orderNumber, found);
    }
    if (!accountWarehouses.has(p.warehouseId)) throw invalidField(`${field}.warehouseId`, `unknown warehouse id ${p.warehouseId}`);
    if (found.scope.warehouseIds !== null && !found.scope.warehouseIds.includes(p.warehouseId)) {
      throw permissionDenied(`${field}.warehouseId: warehouse ${p.warehouseId} is not mapped to this token's integration`);
    }
    const shippedTs = p.shippedTs === undefined || p.shippedTs === null ? now : parseTimestamp(p.shippedTs);
    if (!shippedTs) throw invalidField(`${field}.shippedTs`, `"${p.shippedTs}" is not an RFC 3339 timestamp with a time zone`);
    const packageId = String(p.fulfillmentPackageId).trim();
    if (packageId === '') throw invalidField(`${field}.fulfillmentPackageId`, 'must not be empty');
    const lines = (p.products ?? []).map((product, j) => {
      const productField = `${field}.products[${j}]`;
      if (!Number.isInteger(product.quantity) || product.quantity < 1) throw invalidField(`${productField}.quantity`, 'must be an integer of at least 1');
      return { lineId: lineOf(productField, found.lines, product), quantity: product.quantity };
    });
    try {
      await recordShipment(tx, {
        accountId: principal.accountId,
        orderId: found.order.id,
        warehouseId: p.warehouseId,
        externalPackageId: packageId,
        source: 'V1',
        carrier: p.carrier,
        serviceLevel: p.service_level,
        tracking: p.tracking,
        shippedTs,
        fieldPrefix: field,
        cost: decimalInput(`${field}.cost`, p.cost),
        lines,
        extra: {
          packageWeight: decimalInput(`${field}.packageWeight`, p.packageWeight),
          packageWeightUom: p.packageWeightUom ?? null,
          packageLength: decimalInput(`${field}.dimensions.length`, p.dimensions?.length),
          packageWidth: decimalInput(`${field}.dimensions.width`, p.dimensions?.width),
          packageHeight: decimalInput(`${field}.dimensions.height`, p.dimensions?.height),
          shippedFrom: json(p.shippedFrom),
          shippedTo: json(p.shippedTo),
        },
        now,
      });
    } catch (error) {
      // Name the package in the message so a 50-package call says which one failed.
      if (isAppError(error) && error.code === 'INVALID_ARGUMENT' && !error.message.startsWith('packages[')) {
        error.message = `${field}: ${error.message}`;
      }
      throw error;
    }
  }
  return { orderNumbers: [...orders.keys()] };
}

/** The touched orders as the caller sees them, read after the shipments committed. */
export async function shippedOrderViews(db: Db, principal: Principal, orderNumbers: string[]): Promise<SalesOrderV1[]> {
  const views: SalesOrderV1[] = [];
  for (const orderNumber of orderNumbers) {
    const { order, scope } = await findVisibleOrder(db, principal, orderNumber);
    views.push(...(await orderViews(db, principal, [order], scope)));
  }
  return views;
}
