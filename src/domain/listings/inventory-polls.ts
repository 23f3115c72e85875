import type { Db } from '../../db/tx.js';
import type { VariantView } from './model.js';
import { loadVariantViews } from './view.js';
import type { PollFilter, PollPosition } from './poll.js';

/**
 * The inventory polls of a storefront (document 4.7, resolutions §4): its variants with inventory enabled
 * whose inventory changed after `since` (inventory_updated_at moves with every stock change of the product
 * and with an inventory enable/disable), oldest change first, keyset (inventory_updated_at, id) on the
 * listing_variants_inventory_poll index. 100 variants a page (resolutions §1: listing routes take no pageSize).
 */

export const INVENTORY_POLL_PAGE_SIZE = 100;

interface PolledVariant {
  id: number;
  sku: string;
}

/** One page of variant ids and SKUs, plus where the next page starts (null on the last page). */
async function inventoryUpdatedPage(
  db: Db,
  accountId: number,
  filter: PollFilter,
): Promise<{ rows: PolledVariant[]; next: PollPosition | null }> {
  let query = db
    .selectFrom('listing_variants')
    .select(['id', 'sku', 'inventory_updated_at'])
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', filter.storefrontId)
    .where('inventory_enabled', '=', 1);
  if (filter.since) query = query.where('inventory_updated_at', '>', filter.since.toISOString());
  const after = filter.after;
  if (after) query = query.where((eb) => eb(eb.refTuple('inventory_updated_at', 'id'), '>', eb.tuple(after.ts, after.id)));
  const rows = await query
    .orderBy('inventory_updated_at')
    .orderBy('id')
    .limit(INVENTORY_POLL_PAGE_SIZE + 1)
    .execute();
  const page = rows.slice(0, INVENTORY_POLL_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    rows: page.map((r) => ({ id: Number(r.id), sku: r.sku })),
    next: rows.length > INVENTORY_POLL_PAGE_SIZE && last ? { ts: last.inventory_updated_at, id: Number(last.id) } : null,
  };
}

/** GET /v2/storefront/listing/variant/inventory/updated: the variants in the v2 shape. */
export async function listInventoryUpdatedVariants(
  db: Db,
  accountId: number,
  filter: PollFilter,
): Promise<{ variants: VariantView[]; next: PollPosition | null }> {
  const page = await inventoryUpdatedPage(db, accountId, filter);
  const variants = page.rows.length === 0 ? [] : await loadVariantViews(db, accountId, page.rows.map((r) => r.id), { forPoll: true });
  return { variants, next: page.next };
}

/**
 * GET /v2/storefront/listing/variant/inventory/updated/skus (the document's ListSkusWithUpdatedInventory):
 * the same filter and order, SKUs only. Its driftListings is always empty (resolutions §7: only the drift
 * route fills it), so no listing is looked up here.
 */
export async function listInventoryUpdatedSkus(db: Db, accountId: number, filter: PollFilter): Promise<{ skus: string[]; next: PollPosition | null }> {
  const page = await inventoryUpdatedPage(db, accountId, filter);
  return { skus: page.rows.map((r) => r.sku), next: page.next };
}
