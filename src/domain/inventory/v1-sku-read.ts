import type { DbHandle } from '../../db/connect.js';
import { prepareQuery } from '../../db/fast-paths.js';
import type { Principal } from '../accounts/principal.js';
import { toProductRow } from '../catalog/products.js';
import { notFound } from '../errors.js';
import type { InboundPort, OpenInboundLine } from './inbound-port.js';
import type { StockRow } from './stock.js';
import { assembleDetailedRecord, visibleWarehouses, type DetailedInventoryV1, type SimpleInventoryV1 } from './v1-records.js';

/**
 * GET /v1/inventory/{SKU} and /v1/simpleInventory/{SKU} are the hottest reads partners make, so the
 * product, its stock rows and the warehouse names come from one prepared statement
 * (products ⟕ inventory ⟕ warehouses) instead of three built queries.
 */
interface SkuRow {
  id: number;
  sku: string;
  standard_product_id: string | null;
  standard_product_id_type: string | null;
  active: number;
  inventory_updated_at: string;
  warehouse_id: number | null;
  warehouse_name: string | null;
  available_quantity: number | null;
  onhand_quantity: number | null;
  reserved_quantity: number | null;
  assembled_quantity: number | null;
  bin_location: string | null;
  updated_at: string | null;
}

function skuQuery(handle: DbHandle) {
  return prepareQuery<SkuRow, { accountId: number; sku: string }>(handle, (arg) =>
    handle.db
      .selectFrom('products as p')
      .leftJoin('inventory as s', (j) => j.onRef('s.product_id', '=', 'p.id').onRef('s.account_id', '=', 'p.account_id'))
      .leftJoin('warehouses as w', (j) => j.onRef('w.id', '=', 's.warehouse_id').onRef('w.account_id', '=', 'p.account_id'))
      .select([
        'p.id',
        'p.sku',
        'p.standard_product_id',
        'p.standard_product_id_type',
        'p.active',
        'p.inventory_updated_at',
        's.warehouse_id',
        'w.name as warehouse_name',
        's.available_quantity',
        's.onhand_quantity',
        's.reserved_quantity',
        's.assembled_quantity',
        's.bin_location',
        's.updated_at',
      ])
      .where('p.account_id', '=', arg<number>('accountId'))
      .where('p.sku', '=', arg('sku'))
      .orderBy('s.warehouse_id'),
  );
}

const queries = new WeakMap<DbHandle, ReturnType<typeof skuQuery>>();

/**
 * The detailed record of one SKU; another account's SKU is simply not found. `inbound` lists what is on the
 * way (the inbound area's port, passed in by the edge); null leaves inboundShipments empty and shows no
 * warehouse without a stock record (the simple record needs neither).
 */
export async function getInventoryRecordV1(handle: DbHandle, principal: Principal, sku: string, inbound: InboundPort | null): Promise<DetailedInventoryV1> {
  let query = queries.get(handle);
  if (!query) {
    query = skuQuery(handle);
    queries.set(handle, query);
  }
  const rows = await query.all({ accountId: principal.accountId, sku });
  const first = rows[0];
  if (!first) throw notFound(`SKU "${sku}" not found`);
  const visible = visibleWarehouses(principal, null);
  const names = new Map<number, string>();
  const stock: StockRow[] = [];
  for (const r of rows) {
    if (r.warehouse_id === null) continue;
    if (visible !== null && !visible.includes(r.warehouse_id)) continue;
    names.set(r.warehouse_id, r.warehouse_name ?? '');
    stock.push({
      productId: r.id,
      warehouseId: r.warehouse_id,
      available: r.available_quantity ?? 0,
      onhand: r.onhand_quantity ?? 0,
      reserved: r.reserved_quantity ?? 0,
      assembled: r.assembled_quantity,
      binLocation: r.bin_location,
      updatedAt: r.updated_at ?? first.inventory_updated_at,
    });
  }
  const onTheWay: OpenInboundLine[] = inbound
    ? (await inbound.openLinesOfProduct(handle, principal.accountId, first.id)).filter((l) => visible === null || visible.includes(l.warehouseId))
    : [];
  return assembleDetailedRecord(principal, toProductRow(first), stock, onTheWay, names, visible !== null);
}

/** The simple record: the total over the warehouses the token may see. */
export async function getSimpleInventoryV1(handle: DbHandle, principal: Principal, sku: string): Promise<SimpleInventoryV1> {
  const record = await getInventoryRecordV1(handle, principal, sku, null);
  return {
    SKU: record.SKU,
    standardProductId: record.standardProductId,
    active: record.active,
    standardProductIdType: record.standardProductIdType,
    totalAvailableQuantity: record.totalAvailableQuantity,
    lastInventoryUpdateTs: record.lastInventoryUpdateTs,
  };
}
