import { sql } from 'kysely';
import type { Db } from '../../db/tx.js';
import { searchWords, termRange } from '../search-terms.js';
import { kitRecipesOf, type KitRecipes } from './kit-capacity.js';

/**
 * The seller's catalog list (console, issue 24): the account's products by SKU, keyset-paged both ways on the
 * unique (account_id, sku) index, never OFFSET. A search keeps the products with, for every word typed, a word
 * of their SKU, title or brand that starts with it, in any case (product-search.ts: "blue mug" finds "Mug,
 * blue", "abc-1" finds ABC-100). The words' products are first listed from product_search_terms (one index
 * range each, read up to SHORT_LIST + 1 rows, longer words first):
 * - once a word names few products, those are read by primary key, tested on the other words and sorted by
 *   SKU: a page costs at most SHORT_LIST index entries per word listed;
 * - when every word names many, matches are dense: the SKU index is walked and each product tested on the
 *   (account_id, product_id, term) index (reading two long lists whole to intersect them cost more than the
 *   walk: ~25 ms for 20,000 + 10,000 entries on SQLite).
 *   That walk is bounded: one page reads at most `budget` products; when that stretch of the catalog holds
 *   less than a page of matches, the page shows them and says how far it searched, and its next link goes on
 *   from there.
 */

export const SEARCH_BUDGET = 2_500;
/** A word naming more products than this is tested while walking the SKU index rather than listed. */
export const SHORT_LIST = 1000;
/** Search words read (more would narrow nothing a seller can tell apart). */
const MAX_WORDS = 8;

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

/** The products with a term this word starts, when at most `limit` rows name them; null when more do. */
async function productsOfWord(db: Db, accountId: number, word: string, limit: number): Promise<number[] | null> {
  const [from, to] = termRange(word);
  const rows = await db
    .selectFrom('product_search_terms')
    .select('product_id')
    .where('account_id', '=', accountId)
    .where('term', '>=', from)
    .where('term', '<', to)
    .limit(limit + 1)
    .execute();
  return rows.length > limit ? null : rows.map((r) => Number(r.product_id));
}

/**
 * The same test on one product `p` (the products row): it has a term this word starts. A scalar subquery
 * rather than EXISTS: PostgreSQL may run an EXISTS once as a hashed subplan over the word's whole range (20,000
 * rows for a common brand word) where one probe of (account_id, product_id, term) per product walked is the
 * point; a scalar subquery is always probed per row (SQLite probes either way).
 */
function wordTest(accountId: number, word: string) {
  const [from, to] = termRange(word);
  return sql<boolean>`(select 1 from product_search_terms t where t.account_id = ${accountId} and t.product_id = p.id and t.term >= ${from} and t.term < ${to} limit 1) is not null`;
}

/**
 * The products a search's words narrow to, when one word names few (null: every word names many), and the
 * words still to test on each product. Longer words first (they tend to name fewer products); once one word's
 * list is short, the other words are only tested on those products, never listed.
 */
async function narrow(db: Db, accountId: number, words: readonly string[], shortList: number): Promise<{ ids: number[] | null; tested: string[] }> {
  let ids: number[] | null = null;
  const tested: string[] = [];
  for (const word of [...words].sort((a, b) => b.length - a.length)) {
    if (ids !== null) {
      tested.push(word);
      continue;
    }
    const listed = await productsOfWord(db, accountId, word, shortList);
    if (listed === null) tested.push(word);
    else ids = [...new Set(listed)];
  }
  return { ids, tested };
}

export async function listCatalogProducts(
  db: Db,
  accountId: number,
  search: string | null,
  position: CatalogPosition | null,
  pageLength: number,
  budget = SEARCH_BUDGET,
  shortList = SHORT_LIST,
): Promise<CatalogPage> {
  const backwards = position?.direction === 'before';
  const searching = search !== null && search !== '';
  const order = backwards ? 'desc' : 'asc';
  // The products past the position, in the SKU index's order (`p`, as the word tests name it).
  const stretch = () => {
    let q = db.selectFrom('products as p').where('p.account_id', '=', accountId);
    if (position) q = q.where('p.sku', backwards ? '<' : '>', position.sku);
    return q;
  };
  const columns = ['p.id', 'p.sku', 'p.title', 'p.brand', 'p.price'] as const;
  let rows: CatalogListRow[];
  let boundary: string | null = null;
  if (searching) {
    const words = [...new Set(searchWords(search))].slice(0, MAX_WORDS);
    // Nothing searchable typed (only punctuation): no product has such a word.
    const { ids, tested } = words.length === 0 ? { ids: [] as number[], tested: [] as string[] } : await narrow(db, accountId, words, shortList);
    const tests = tested.map((w) => wordTest(accountId, w));
    if (ids !== null) {
      // Few products: those by primary key (`+ 0` keeps the account's indexes out of it), sorted by SKU.
      rows =
        ids.length === 0
          ? []
          : await db
              .selectFrom('products as p')
              .select(columns)
              // `+ 0`: the primary key finds them, not a walk of the account's SKU index testing each.
              .where(sql<number>`p.account_id + 0`, '=', accountId)
              .where('p.id', 'in', ids)
              .$call((q) => (position ? q.where('p.sku', backwards ? '<' : '>', position.sku) : q))
              .$call((q) => (tests.length === 0 ? q : q.where(sql<boolean>`${sql.join(tests, sql` and `)}`)))
              .orderBy('p.sku', order)
              .limit(pageLength + 1)
              .execute();
    } else {
      const window = stretch()
        .select(columns)
        .select(sql<number>`case when ${sql.join(tests, sql` and `)} then 1 else 0 end`.as('hit'))
        .orderBy('p.sku', order)
        .limit(budget)
        .as('w');
      const [found, edge] = await Promise.all([
        db
          .selectFrom(window)
          .select(['w.id', 'w.sku', 'w.title', 'w.brand', 'w.price'])
          .where('w.hit', '=', 1)
          .orderBy('w.sku', order)
          .limit(pageLength + 1)
          .execute(),
        // The last SKU of the stretch (an index-only read) and whether the stretch was cut short by the budget.
        db
          .selectFrom(stretch().select('p.sku').orderBy('p.sku', order).limit(budget).as('s'))
          .select((eb) => [backwards ? eb.fn.min<string>('s.sku').as('edge') : eb.fn.max<string>('s.sku').as('edge'), eb.fn.countAll<number | string>().as('n')])
          .executeTakeFirst(),
      ]);
      rows = found;
      if (found.length <= pageLength && edge && Number(edge.n) >= budget) boundary = edge.edge;
    }
  } else {
    rows = await stretch()
      .select(columns)
      .orderBy('p.sku', order)
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
