import type { Db } from '../../db/tx.js';
import { decimalOutput } from '../../lib/decimal.js';

/** Packages of orders (document 2.10 Package), read for the v1 order view and the storefront feeds. */

export interface PackageItem {
  lineId: number;
  sku: string | null;
  /** The SKU the channel sent the line under (requestedSku). */
  channelSku: string;
  quantity: number;
}

export interface PackageRecord {
  id: number;
  orderId: number;
  warehouseId: number | null;
  carrier: string | null;
  serviceLevel: string | null;
  cost: string | null;
  tracking: string | null;
  shippedTs: string;
  rma: string | null;
  labelUrl: string | null;
  packageWeight: string | null;
  packageWeightUom: string | null;
  packageHeight: string | null;
  packageWidth: string | null;
  packageLength: string | null;
  items: PackageItem[];
}

export interface PackageV1 {
  packageId: number;
  carrier: string | null;
  serviceLevel: string | null;
  cost: number | null;
  tracking: string | null;
  shippedTs: string;
  rma: string | null;
  labelUrl: string | null;
  packageWeight: number | null;
  packageWeightUom: string | null;
  packageHeight: number | null;
  packageWidth: number | null;
  packageLength: number | null;
  products: { sku: string | null; lineItemId: string; quantity: number }[];
}

/**
 * Packages per order id, oldest first. warehouseIds narrows to packages shipped from those warehouses
 * (a narrowed token sees only its own warehouses' packages); null = all.
 */
export async function packagesByOrder(db: Db, accountId: number, orderIds: number[], warehouseIds: number[] | null): Promise<Map<number, PackageRecord[]>> {
  const result = new Map<number, PackageRecord[]>();
  if (orderIds.length === 0 || (warehouseIds !== null && warehouseIds.length === 0)) return result;
  let query = db.selectFrom('sales_order_packages').selectAll().where('account_id', '=', accountId).where('order_id', 'in', orderIds);
  if (warehouseIds !== null) query = query.where('warehouse_id', 'in', warehouseIds);
  const packages = await query.orderBy('order_id').orderBy('id').execute();
  if (packages.length === 0) return result;
  const items = await db
    .selectFrom('sales_order_package_items as i')
    .innerJoin('sales_order_lines as l', (j) => j.onRef('l.id', '=', 'i.line_id').onRef('l.account_id', '=', 'i.account_id'))
    .select(['i.package_id', 'i.line_id', 'i.quantity', 'l.sku', 'l.requested_sku'])
    .where('i.account_id', '=', accountId)
    .where(
      'i.package_id',
      'in',
      packages.map((p) => p.id),
    )
    .orderBy('i.package_id')
    .orderBy('i.id')
    .execute();
  const itemsByPackage = new Map<number, PackageItem[]>();
  for (const i of items) {
    const list = itemsByPackage.get(Number(i.package_id)) ?? [];
    list.push({ lineId: Number(i.line_id), sku: i.sku, channelSku: i.requested_sku, quantity: Number(i.quantity) });
    itemsByPackage.set(Number(i.package_id), list);
  }
  for (const p of packages) {
    const orderId = Number(p.order_id);
    const list = result.get(orderId) ?? [];
    list.push({
      id: Number(p.id),
      orderId,
      warehouseId: p.warehouse_id === null ? null : Number(p.warehouse_id),
      carrier: p.carrier,
      serviceLevel: p.service_level,
      cost: p.cost,
      tracking: p.tracking,
      shippedTs: p.shipped_ts,
      rma: p.rma,
      labelUrl: p.label_url,
      packageWeight: p.package_weight,
      packageWeightUom: p.package_weight_uom,
      packageHeight: p.package_height,
      packageWidth: p.package_width,
      packageLength: p.package_length,
      items: itemsByPackage.get(Number(p.id)) ?? [],
    });
    result.set(orderId, list);
  }
  return result;
}

export function packageV1(p: PackageRecord): PackageV1 {
  return {
    packageId: p.id,
    carrier: p.carrier,
    serviceLevel: p.serviceLevel,
    cost: decimalOutput(p.cost),
    tracking: p.tracking,
    shippedTs: p.shippedTs,
    rma: p.rma,
    labelUrl: p.labelUrl,
    packageWeight: decimalOutput(p.packageWeight),
    packageWeightUom: p.packageWeightUom,
    packageHeight: decimalOutput(p.packageHeight),
    packageWidth: decimalOutput(p.packageWidth),
    packageLength: decimalOutput(p.packageLength),
    products: p.items.map((i) => ({ sku: i.sku, lineItemId: String(i.lineId), quantity: i.quantity })),
  };
}
