import { sql } from 'kysely';
import type { Db } from '../../db/tx.js';
import { kitRecipesOf, type KitRecipes } from './kit-capacity.js';

/**
 * The seller's catalog list (console, issue 24): the account's products by SKU, keyset-paged both ways on the
 * unique (account_id, sku) index, never OFFSET. A search keeps the rows whose SKU, title or brand contains
 * what was typed, in any case, by walking the same index and testing each product. The walk is bounded: one
 * page reads at most `budget` products; when that stretch of the catalog holds less than a page of matches,
 * the page shows them and says how far it searched, and its next link goes on from there. Measured with
 * 100,000 products and no match: the whole walk ~110 ms on SQLite; 10,000 products ~30 ms on SQLite and
 * ~45 ms on PostgreSQL (the three LIKE tests dominate), hence 2,500. A word index like the orders'
 * (sales_order_search_terms) would make every search one range read, at the cost of writing it with every
 * product change (imports, stock writers creating SKUs).
 */

export const SEARCH_BUDGET = 2_500;

export interface CatalogListRow {
  id: number;
  sku: string;
  title: string | null;
  brand: string | null;
  price: string | null;
}

/** Where a page starts: after a SKU (the next page) or ends before it (the previous page). */
export interface CatalogPosition {
  sku: string;
  direction: 'after' | 'before';
}

export interface CatalogPage {
  products: CatalogListRow[];
  /** The kits among the page's products, with their recipes (kit product id → components). */
  kits: KitRecipes;
  /** The SKU to page after when more follow; the SKU to page before when more precede. */
  next: string | null;
  previous: string | null;
  /**
   * A search that read its budget before it found a page: the SKU it searched up to (down to, when paging
   * back). The page holds every match up to there; the link on that side goes on searching.
   */
  searchedTo: string | null;
}

/** A LIKE pattern that matches `text` anywhere, its own wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listCatalogProducts(
  db: Db,
  accountId: number,
  search: string | null,
  position: CatalogPosition | null,
  pageLength: number,
  budget = SEARCH_BUDGET,
): Promise<CatalogPage> {
  const backwards = position?.direction === 'before';
  const searching = search !== null && search !== '';
  // The stretch of the SKU index one page may read: the whole catalog, or `budget` products when searching.
  const stretch = () => {
    let q = db.selectFrom('products').where('account_id', '=', accountId);
    if (position) q = q.where('sku', backwards ? '<' : '>', position.sku);
    return q;
  };
  let rows: CatalogListRow[];
  let boundary: string | null = null;
  if (searching) {
    const pattern = containsPattern(search);
    const window = stretch()
      .select(['id', 'sku', 'title', 'brand', 'price'])
      .select(sql<number>`case when sku_lower like ${pattern} escape '\\' or lower(title) like ${pattern} escape '\\' or lower(brand) like ${pattern} escape '\\' then 1 else 0 end`.as('hit'))
      .orderBy('sku', backwards ? 'desc' : 'asc')
      .limit(budget)
      .as('w');
    const [found, edge] = await Promise.all([
      db
        .selectFrom(window)
        .select(['w.id', 'w.sku', 'w.title', 'w.brand', 'w.price'])
        .where('w.hit', '=', 1)
        .orderBy('w.sku', backwards ? 'desc' : 'asc')
        .limit(pageLength + 1)
        .execute(),
      // The last SKU of the stretch (an index-only read) and whether the stretch was cut short by the budget.
      db
        .selectFrom(stretch().select('sku').orderBy('sku', backwards ? 'desc' : 'asc').limit(budget).as('s'))
        .select((eb) => [backwards ? eb.fn.min<string>('s.sku').as('edge') : eb.fn.max<string>('s.sku').as('edge'), eb.fn.countAll<number | string>().as('n')])
        .executeTakeFirst(),
    ]);
    rows = found;
    if (found.length <= pageLength && edge && Number(edge.n) >= budget) boundary = edge.edge;
  } else {
    rows = await stretch()
      .select(['id', 'sku', 'title', 'brand', 'price'])
      .orderBy('sku', backwards ? 'desc' : 'asc')
      .limit(pageLength + 1)
      .execute();
  }
  const more = rows.length > pageLength;
  const page = rows.slice(0, pageLength);
  if (backwards) page.reverse();
  const first = page[0]?.sku ?? null;
  const last = page[page.length - 1]?.sku ?? null;
  // Coming from a page means rows lie on that side; one row read past the page (or the stretch's edge when
  // the budget ran out first) says whether more lie on the other.
  const onward = more ? (backwards ? first : last) : boundary;
  // An empty page (a searched stretch without a match) links on only: the way back is the page before it.
  const back = position ? (backwards ? last : first) : null;
  const kits = await kitRecipesOf(
    db,
    accountId,
    page.map((p) => p.id),
  );
  return {
    products: page,
    kits,
    next: backwards ? back : onward,
    previous: backwards ? onward : back,
    searchedTo: boundary,
  };
}
