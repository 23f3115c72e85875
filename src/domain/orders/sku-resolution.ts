import type { Db } from '../../db/tx.js';
import { findProductsBySkus, type ProductRow } from '../catalog/products.js';

/**
 * The product each requested SKU names: an exact match first, else the one product whose SKU matches
 * case-insensitively. Requested SKUs that resolve to nothing are absent from the map (the line keeps
 * requestedSku with sku null). Aliases and channel SKU overrides are not modelled yet.
 */
export async function resolveRequestedSkus(db: Db, accountId: number, requested: string[]): Promise<Map<string, ProductRow>> {
  const unique = [...new Set(requested)];
  const resolved = new Map<string, ProductRow>();
  for (const p of await findProductsBySkus(db, accountId, unique, true)) resolved.set(p.sku, p);
  const rest = unique.filter((s) => !resolved.has(s));
  if (rest.length === 0) return resolved;
  // Grouped by lower case once, so each requested SKU costs a lookup rather than a scan of every match.
  const looseByLower = new Map<string, ProductRow[]>();
  for (const p of await findProductsBySkus(db, accountId, rest, false)) {
    const key = p.sku.toLowerCase();
    const list = looseByLower.get(key);
    if (list) list.push(p);
    else looseByLower.set(key, [p]);
  }
  for (const sku of rest) {
    const matches = looseByLower.get(sku.toLowerCase()) ?? [];
    if (matches.length === 1) resolved.set(sku, matches[0]!);
  }
  return resolved;
}
