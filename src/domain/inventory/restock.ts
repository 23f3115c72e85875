import type { Db } from '../../db/tx.js';
import { applyStockChange, type StockRow } from './stock.js';
import { holdStockClosure } from './stock-locks.js';

/**
 * Units that came back to a warehouse (a received return the seller puts back in stock): on-hand and
 * available rise by the same conditional UPDATE an inbound receipt uses (applyStockChange delta), so the
 * product's inventory timestamp moves and GET /v1/inventory, the storefront polls and the drift check see it.
 *
 * A kit's own stock row IS its assembled kits (assembled-kits.ts): a kit that comes back whole goes back as an
 * assembled kit, so its assembled count rises with on-hand, the mirror of shipReservedStock lowering it when
 * the kit left. A row without an assembled count (any other SKU, or a kit never counted) keeps null.
 */
export async function restockUnits(db: Db, accountId: number, productId: number, warehouseId: number, units: number, now: Date): Promise<StockRow> {
  if (!Number.isInteger(units) || units < 1) throw new Error(`restocking needs a positive whole number of units, got ${units}`);
  // The row and the kit rows the fill after it may touch, in one order (stock-locks.ts).
  await holdStockClosure(db, accountId, [{ productId, warehouseId }]);
  const changed = await applyStockChange(db, accountId, productId, warehouseId, { mode: 'delta', delta: units }, now);
  // A positive delta is never refused; anything else is a broken invariant, not a caller's mistake.
  if (!changed.ok) throw new Error(`restocking ${units} units of product ${productId} in warehouse ${warehouseId} failed: ${changed.message}`);
  if (changed.row.assembled === null) return changed.row;
  const assembled = await db
    .updateTable('inventory')
    .set((eb) => ({ assembled_quantity: eb('assembled_quantity', '+', units) }))
    .where('account_id', '=', accountId)
    .where('product_id', '=', productId)
    .where('warehouse_id', '=', warehouseId)
    .where('assembled_quantity', 'is not', null)
    .returning('assembled_quantity')
    .executeTakeFirst();
  return assembled ? { ...changed.row, assembled: assembled.assembled_quantity } : changed.row;
}
