/**
 * The PostgreSQL reference beside bench/run.ts's 50-item update (issue 26 item 1): the batch of
 * bench/inventory-reference.ts written directly against node-postgres, on the service's own migrated schema
 * (the benchmark's DATABASE_URL), no HTTP. `clients` connections (default 10, as autocannon's 10 connections
 * against the route) each apply batches one after another until the deadline: one transaction per batch and,
 * per item, the product lookup by SKU, the stock row ensured, the conditional delta UPDATE and the product's
 * inventory timestamp, each a named prepared statement waiting for the one before it (4 round trips an item,
 * 202 a batch). What 50 items cost the database alone, one statement at a time.
 */
import type pg from 'pg';
import type { InventoryReferenceResult } from './inventory-reference.js';
import { openClients } from './order-reference-pg.js';

const DEFAULT_CLIENTS = 10;

const STATEMENTS = {
  product: 'select id from products where account_id = $1 and sku = $2',
  ensure: `insert into inventory (account_id, product_id, warehouse_id, available_quantity, onhand_quantity, reserved_quantity, updated_at)
     values ($1, $2, $3, 0, 0, 0, $4) on conflict (account_id, product_id, warehouse_id) do nothing`,
  update: `update inventory set available_quantity = available_quantity + $1, onhand_quantity = onhand_quantity + $1, updated_at = $2
     where account_id = $3 and product_id = $4 and warehouse_id = $5 and available_quantity + $1 >= 0`,
  touch: 'update products set inventory_updated_at = $1 where account_id = $2 and id = $3 and inventory_updated_at < $1',
} as const;

export async function runInventoryReferencePg(
  databaseUrl: string,
  context: { accountId: number; warehouseId: number; batches: string[][] },
  seconds: number,
  clients = DEFAULT_CLIENTS,
): Promise<InventoryReferenceResult> {
  const connections = await openClients(databaseUrl, clients);
  try {
    const { accountId, warehouseId } = context;
    // Consecutive batches go to the connections in turn, so the batches in flight at once are different ones
    // (as long as there are more batches than connections) and the floor is not a lock queue.
    let next = 0;
    const started = performance.now();
    const deadline = started + seconds * 1000;

    const applyBatches = async (client: pg.Client): Promise<number> => {
      const q = (name: keyof typeof STATEMENTS, values: unknown[]) => client.query({ name: `ref_inventory_${name}`, text: STATEMENTS[name], values });
      let items = 0;
      while (performance.now() < deadline) {
        const batch = context.batches[next++ % context.batches.length]!;
        await client.query('BEGIN');
        try {
          for (const sku of batch) {
            const iso = new Date().toISOString();
            const product = (await q('product', [accountId, sku])).rows[0] as { id: number } | undefined;
            if (!product) throw new Error(`reference: no product ${sku}`);
            await q('ensure', [accountId, product.id, warehouseId, iso]);
            if ((await q('update', [1, iso, accountId, product.id, warehouseId])).rowCount !== 1) throw new Error('reference: update failed');
            await q('touch', [iso, accountId, product.id]);
          }
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
        items += batch.length;
      }
      return items;
    };

    const perClient = await Promise.all(connections.map(applyBatches));
    const items = perClient.reduce((a, b) => a + b, 0);
    return { items, itemsPerSecond: items / ((performance.now() - started) / 1000) };
  } finally {
    await Promise.allSettled(connections.map((c) => c.end()));
  }
}
