import type { TestApp } from '../helpers/app.js';
import { bearer } from '../helpers/fixtures.js';

/** Shared by the v2-inventory*.test.ts files: products, updates through HTTP, and stock reads. */

/** Creates products in one insert (v2 updates never create them); returns their ids by SKU. */
export async function createProducts(t: TestApp, accountId: number, skus: string[]): Promise<Map<string, number>> {
  const iso = t.deps.clock.now().toISOString();
  const rows = await t.deps.db.db
    .insertInto('products')
    .values(
      skus.map((sku) => ({
        account_id: accountId,
        sku,
        sku_lower: sku.toLowerCase(),
        standard_product_id: null,
        standard_product_id_type: null,
        title: null,
        active: 1,
        inventory_updated_at: iso,
        created_at: iso,
        updated_at: iso,
      })),
    )
    .returning(['id', 'sku'])
    .execute();
  return new Map(rows.map((r) => [r.sku, Number(r.id)]));
}

export function postUpdates(t: TestApp, token: string, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/v2/inventory',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Sets on-hand counts through POST /v2/inventory in batches of 100; every entry must succeed. */
export async function reportStock(
  t: TestApp,
  token: string,
  warehouseUniqueId: string,
  counts: [sku: string, quantity: number][],
  observedTs = t.deps.clock.now().toISOString(),
): Promise<void> {
  for (let i = 0; i < counts.length; i += 100) {
    const updates = counts.slice(i, i + 100).map(([sku, quantity]) => ({ sku, warehouseUniqueId, quantity }));
    const res = await postUpdates(t, token, { updates, observedTs });
    if (res.statusCode !== 200) throw new Error(`stock report failed: ${res.statusCode} ${res.body}`);
    const failed = (res.json() as { results: { success: boolean }[] }).results.filter((r) => !r.success);
    if (failed.length > 0) throw new Error(`stock report entries failed: ${JSON.stringify(failed)}`);
  }
}

/** Every stock row of the account, for "nothing changed" assertions. */
export async function allStock(t: TestApp, accountId: number) {
  return t.deps.db.db
    .selectFrom('inventory')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

export async function stockRow(t: TestApp, accountId: number, productId: number, warehouseId: number) {
  return t.deps.db.db
    .selectFrom('inventory')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('product_id', '=', productId)
    .where('warehouse_id', '=', warehouseId)
    .executeTakeFirst();
}

export const INVENTORY_ROUTES = [
  { method: 'GET' as const, url: '/v2/inventory' },
  { method: 'POST' as const, url: '/v2/inventory' },
  { method: 'GET' as const, url: '/v2/inventory/warehouses' },
  { method: 'GET' as const, url: '/v2/inventory/status' },
];
