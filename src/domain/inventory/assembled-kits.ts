import type { Tx } from '../../db/tx.js';
import { kitRecipe, productIdOf } from '../catalog/kits.js';
import { conflict, invalidArgument, notFound } from '../errors.js';
import type { BackorderPort } from './backorder-port.js';
import { ensureStockRow } from './stock.js';
import { touchProductInventory } from './stock-touch.js';

export interface AssembledView {
  sku: string;
  warehouseId: number;
  assembledQuantity: number;
  onhandQuantity: number;
  availableQuantity: number;
  reservedQuantity: number;
}

/**
 * The seller's count of assembled kits in a warehouse. A kit's own stock row IS its assembled kits: the
 * count sets assembled_quantity and on-hand to `quantity` (available = on-hand − reserved), so routing
 * reserves assembled kits from the kit's own available stock like any SKU. A count below the kits open
 * orders already hold there is a 409 (cancel or ship those first); a product without components is a 400.
 * Kits it leaves available go to the orders waiting for the kit there (oldest first) before the answer,
 * which shows the counts after them.
 */
export async function setAssembledQuantity(
  tx: Tx,
  accountId: number,
  sku: string,
  warehouseId: number,
  quantity: number,
  now: Date,
  backorders: BackorderPort,
): Promise<AssembledView> {
  const kitId = await productIdOf(tx, accountId, sku);
  const warehouse = await tx.selectFrom('warehouses').select('id').where('account_id', '=', accountId).where('id', '=', warehouseId).executeTakeFirst();
  if (!warehouse) throw notFound(`warehouse ${warehouseId} not found`);
  if ((await kitRecipe(tx, accountId, kitId)).length === 0) throw invalidArgument(`${sku} is not a kit (it has no components)`);
  const iso = now.toISOString();
  await ensureStockRow(tx, accountId, kitId, warehouseId, now);
  const row = await tx
    .updateTable('inventory')
    .set((eb) => ({
      assembled_quantity: quantity,
      onhand_quantity: quantity,
      available_quantity: eb(eb.val(quantity), '-', eb.ref('reserved_quantity')),
      updated_at: iso,
    }))
    .where('account_id', '=', accountId)
    .where('product_id', '=', kitId)
    .where('warehouse_id', '=', warehouseId)
    .where('reserved_quantity', '<=', quantity)
    .returning(['assembled_quantity', 'onhand_quantity', 'available_quantity', 'reserved_quantity'])
    .executeTakeFirst();
  if (!row) throw conflict(`open orders hold more than ${quantity} assembled ${sku} kits in warehouse ${warehouseId}`);
  await touchProductInventory(tx, accountId, kitId, now);
  let after = row;
  if (row.available_quantity > 0) {
    await backorders.stockAvailable(tx, accountId, [{ productId: kitId, warehouseId }], now);
    after = await tx
      .selectFrom('inventory')
      .select(['assembled_quantity', 'onhand_quantity', 'available_quantity', 'reserved_quantity'])
      .where('account_id', '=', accountId)
      .where('product_id', '=', kitId)
      .where('warehouse_id', '=', warehouseId)
      .executeTakeFirstOrThrow();
  }
  return {
    sku,
    warehouseId,
    assembledQuantity: after.assembled_quantity ?? quantity,
    onhandQuantity: after.onhand_quantity,
    availableQuantity: after.available_quantity,
    reservedQuantity: after.reserved_quantity,
  };
}
