import { type ArgFn, argList, compiledBySize, listArgsOf, readAhead } from '../../db/fast-paths.js';
import type { Db } from '../../db/tx.js';

/** What a new order needs of each product its lines name: found in one statement with the SKU lookup. */
export interface OrderProduct {
  id: number;
  sku: string;
  /** The line's title when the channel sends none. */
  title: string | null;
  standardProductId: string | null;
  /** A kit routes its components' stock (src/domain/orders/kit-routing.ts). */
  isKit: boolean;
}

interface OrderProductDbRow {
  id: number;
  sku: string;
  title: string | null;
  standard_product_id: string | null;
  is_kit: number | boolean;
}

function orderProducts(db: Db, arg: ArgFn, n: number, column: 'p.sku' | 'p.sku_lower') {
  return db
    .selectFrom('products as p')
    .select(['p.id', 'p.sku', 'p.title', 'p.standard_product_id'])
    .select((eb) =>
      eb
        .exists(eb.selectFrom('kit_components as k').select('k.kit_product_id').where('k.account_id', '=', arg<number>('accountId')).whereRef('k.kit_product_id', '=', 'p.id'))
        .as('is_kit'),
    )
    .where('p.account_id', '=', arg<number>('accountId'))
    .where(column, 'in', argList<string>(arg, 's', n))
    .orderBy('p.id');
}

const bySku = compiledBySize<OrderProductDbRow, Record<string, unknown>>((db, arg, n) => orderProducts(db, arg, n, 'p.sku'));
const byLowerSku = compiledBySize<OrderProductDbRow, Record<string, unknown>>((db, arg, n) => orderProducts(db, arg, n, 'p.sku_lower'));

function productsOf(rows: readonly OrderProductDbRow[]): OrderProduct[] {
  // SQLite answers EXISTS as 0/1, PostgreSQL as a boolean.
  return rows.map((r) => ({ id: r.id, sku: r.sku, title: r.title, standardProductId: r.standard_product_id, isKit: Number(r.is_kit) === 1 }));
}

/**
 * The product each requested SKU names: an exact match first, else the one product whose SKU matches
 * case-insensitively. Requested SKUs that resolve to nothing are absent from the map (the line keeps
 * requestedSku with sku null). Aliases and channel SKU overrides are not modelled yet.
 */
export async function resolveRequestedSkus(db: Db, accountId: number, requested: string[]): Promise<Map<string, OrderProduct>> {
  return (await requestedSkusAhead(db, accountId, requested))();
}

/**
 * resolveRequestedSkus with its exact lookup sent ahead (src/db/unanswered.ts), so it shares the round trip of
 * what the caller sends next; the case-insensitive lookup, for SKUs not matched exactly, runs when the answer
 * is taken.
 */
export async function requestedSkusAhead(db: Db, accountId: number, requested: string[]): Promise<() => Promise<Map<string, OrderProduct>>> {
  const unique = [...new Set(requested)];
  if (unique.length === 0) return () => Promise.resolve(new Map());
  const exact = await readAhead(db, bySku.bound(db, unique.length, { accountId, ...listArgsOf('s', unique) }));
  return async () => {
    const resolved = new Map<string, OrderProduct>();
    for (const p of productsOf(await exact())) resolved.set(p.sku, p);
    const rest = unique.filter((s) => !resolved.has(s));
    if (rest.length === 0) return resolved;
    // Grouped by lower case once, so each requested SKU costs a lookup rather than a scan of every match.
    const looseByLower = new Map<string, OrderProduct[]>();
    const loose = await byLowerSku.all(db, rest.length, { accountId, ...listArgsOf('s', rest.map((s) => s.toLowerCase())) });
    for (const p of productsOf(loose)) {
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
  };
}
