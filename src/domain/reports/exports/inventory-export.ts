import type { Db } from '../../../db/tx.js';
import type { CompiledFilter } from '../filter-formula.js';
import { INVENTORY_COLUMNS, inventoryFilterRecord } from './export-filter.js';
import { EXPORT_PAGE_SIZE, type Cell, type ExportSource } from './export-format.js';

export interface InventoryExportInput {
  accountId: number;
  activeOnly: boolean;
  filter: CompiledFilter | null;
  pageSize?: number;
}

/**
 * The Inventory export (docs/partners/reports-exports.md): one row per stock record, that is per (SKU,
 * warehouse) the account holds stock information for, ordered by product then warehouse. Pages follow the
 * unique index (account_id, product_id, warehouse_id) with a row-value keyset; activeOnly applies to the
 * product. A SKU never stocked anywhere has no row.
 */
export async function inventoryExportSource(db: Db, input: InventoryExportInput): Promise<ExportSource> {
  const { accountId, activeOnly, filter } = input;
  const pageSize = input.pageSize ?? EXPORT_PAGE_SIZE;

  async function* pages(): AsyncGenerator<Cell[][]> {
    let after: readonly [number, number] | null = null;
    for (;;) {
      let query = db
        .selectFrom('inventory as i')
        .innerJoin('products as p', 'p.id', 'i.product_id')
        .innerJoin('warehouses as w', 'w.id', 'i.warehouse_id')
        .select([
          'i.product_id',
          'i.warehouse_id',
          'p.sku',
          'w.name as warehouse',
          'i.available_quantity',
          'i.onhand_quantity',
          'i.reserved_quantity',
          'i.assembled_quantity',
          'i.bin_location',
          'i.updated_at',
        ])
        .where('i.account_id', '=', accountId)
        .where('p.account_id', '=', accountId)
        .where('w.account_id', '=', accountId)
        .$if(activeOnly, (qb) => qb.where('p.active', '=', 1))
        .orderBy('i.product_id')
        .orderBy('i.warehouse_id')
        .limit(pageSize);
      if (after !== null) {
        const [productId, warehouseId] = after;
        query = query.where((eb) => eb(eb.refTuple('i.product_id', 'i.warehouse_id'), '>', eb.tuple(productId, warehouseId)));
      }
      const records = await query.execute();
      if (records.length === 0) return;
      const last = records[records.length - 1]!;
      after = [last.product_id, last.warehouse_id];

      const rows: Cell[][] = [];
      for (const record of records) {
        const cells: Record<string, string | number | null> = {
          sku: record.sku,
          warehouse_id: record.warehouse_id,
          warehouse: record.warehouse,
          available_quantity: record.available_quantity,
          onhand_quantity: record.onhand_quantity,
          reserved_quantity: record.reserved_quantity,
          assembled_quantity: record.assembled_quantity,
          bin_location: record.bin_location,
          updated_at: record.updated_at,
        };
        if (filter && !filter.matches(inventoryFilterRecord(cells))) continue;
        rows.push(INVENTORY_COLUMNS.map((column) => cells[column.name] ?? null));
      }
      yield rows;
      if (records.length < pageSize) return;
    }
  }

  return { sheetName: 'Inventory', columns: INVENTORY_COLUMNS.map((column) => column.name), pages };
}
