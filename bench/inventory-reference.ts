/**
 * The reference beside bench/run.ts's 50-item update (issue 13): the same batch written directly against
 * better-sqlite3 with prepared statements, on the service's own database file and schema, one connection,
 * no HTTP: one transaction per batch and, per item, the product lookup by SKU, the stock row ensured, the
 * conditional delta UPDATE and the product's inventory timestamp. What 50 items cost the database alone.
 */
import type SQLite from 'better-sqlite3';

export interface InventoryReferenceResult {
  items: number;
  itemsPerSecond: number;
}

export function runInventoryReference(
  sqlite: SQLite.Database,
  context: { accountId: number; warehouseId: number; batches: string[][] },
  seconds: number,
): InventoryReferenceResult {
  const product = sqlite.prepare('select id from products where account_id = ? and sku = ?').pluck();
  const ensure = sqlite.prepare(
    `insert into inventory (account_id, product_id, warehouse_id, available_quantity, onhand_quantity, reserved_quantity, updated_at)
     values (?, ?, ?, 0, 0, 0, ?) on conflict (account_id, product_id, warehouse_id) do nothing`,
  );
  const update = sqlite.prepare(
    `update inventory set available_quantity = available_quantity + ?, onhand_quantity = onhand_quantity + ?, updated_at = ?
     where account_id = ? and product_id = ? and warehouse_id = ? and available_quantity + ? >= 0`,
  );
  const touch = sqlite.prepare('update products set inventory_updated_at = ? where account_id = ? and id = ? and inventory_updated_at < ?');
  const { accountId, warehouseId } = context;
  const applyBatch = sqlite.transaction((skus: string[]) => {
    for (const sku of skus) {
      const iso = new Date().toISOString();
      const productId = product.get(accountId, sku) as number;
      ensure.run(accountId, productId, warehouseId, iso);
      if (update.run(1, 1, iso, accountId, productId, warehouseId, 1).changes !== 1) throw new Error('reference: update failed');
      touch.run(iso, accountId, productId, iso);
    }
  });
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let items = 0;
  for (let b = 0; performance.now() < deadline; b++) {
    const batch = context.batches[b % context.batches.length]!;
    applyBatch(batch);
    items += batch.length;
  }
  return { items, itemsPerSecond: items / ((performance.now() - started) / 1000) };
}
