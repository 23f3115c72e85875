import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { listAccountWarehouses } from '../../../../domain/accounts/warehouses.js';
import { listCatalogProducts } from '../../../../domain/catalog/catalog-list.js';
import { stockRowsFor } from '../../../../domain/inventory/stock.js';
import { formatMoney } from '../../components.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { queryText } from '../params.js';
import { availableByProduct, buildableKits, catalogHref, decodeCatalogPosition, encodeCatalogPosition, MAX_SEARCH } from './catalog-query.js';

const PAGE_SIZE = 50;

// The cell says what it counts: on a phone the rows are cards without the column headings.
const availableText = (n: number, kit: boolean) => `${n.toLocaleString('en-US')} ${kit ? 'assembled' : 'available'}`;

/** /console/catalog: the account's products by SKU, a search on SKU, title and brand, paging both ways. */
export function registerCatalogList(scope: FastifyInstance, deps: Deps): void {
  scope.get('/catalog', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const db = deps.db.db;
    const accountId = user.accountId;
    const q = queryText(request.query, 'q').trim().slice(0, MAX_SEARCH);
    const position = decodeCatalogPosition(deps, accountId, queryText(request.query, 'cursor'));
    const page = await listCatalogProducts(db, accountId, q === '' ? null : q, position, PAGE_SIZE);
    const componentIds = [...page.kits.values()].flatMap((recipe) => recipe.map((c) => c.productId));
    const [stock, warehouses] = await Promise.all([
      stockRowsFor(db, accountId, [...new Set([...page.products.map((p) => p.id), ...componentIds])], null),
      listAccountWarehouses(db, accountId),
    ]);
    // A channel's own network does not assemble the seller's kits.
    const assembling = warehouses.filter((w) => !w.channelFulfilled).map((w) => w.id);
    const available = availableByProduct(stock);
    const next = encodeCatalogPosition(deps, accountId, page.next, 'a');
    const previous = encodeCatalogPosition(deps, accountId, page.previous, 'b');
    const backwards = position?.direction === 'before';
    // A search that read its share of the catalog before it found a page says so on its link onward.
    const searchingOn = page.searchedTo !== null && !backwards;
    const searchingBack = page.searchedTo !== null && backwards;
    const ctx = pageContext(request, reply, user, '/console/catalog');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Catalog">
        <div class="page-head">
          <h1>Catalog</h1>
          <a class="button" href="/console/catalog/new">
            New product
          </a>
        </div>
        <form method="get" action="/console/catalog" class="order-search" role="search" aria-label="Search products">
          <label class="grow">
            <span>Search products</span>
            <input type="search" name="q" value={q} placeholder="SKU, title or brand" maxlength={String(MAX_SEARCH)} />
          </label>
          <button type="submit">Search</button>
          {q !== '' ? <a href="/console/catalog">Clear search</a> : ''}
        </form>
        {page.searchedTo !== null ? (
          <p class="muted" safe>
            {`Searched your products ${backwards ? 'back to' : 'up to'} SKU ${page.searchedTo}${page.products.length === 0 ? ': none of them matches yet' : ''}. Search further to look through the rest.`}
          </p>
        ) : (
          ''
        )}
        {page.products.length === 0 && page.searchedTo !== null ? (
          ''
        ) : page.products.length === 0 ? (
          <p class="empty">
            {q !== '' ? (
              <>
                <span safe>{`No product matches "${q}": each word you type must start a word of a SKU, title or brand.`}</span> <a href="/console/catalog">Show all products</a>
              </>
            ) : position ? (
              <>
                No products on this page. <a href="/console/catalog">Back to the first page</a>
              </>
            ) : (
              <>
                No products yet. <a href="/console/catalog/new">Add your first product</a>, or import a product file from Reports. Products also appear when
                you put a new SKU in stock or an order brings one.
              </>
            )}
          </p>
        ) : (
          <div class="table-wrap">
            <table class="catalog">
              <caption class="skip">{q === '' ? 'Products, by SKU' : 'Products found, by SKU'}</caption>
              <thead>
                <tr>
                  <th scope="col">SKU</th>
                  <th scope="col">Title</th>
                  <th scope="col">Brand</th>
                  <th scope="col" class="num">
                    Price
                  </th>
                  <th scope="col" class="num">
                    Available
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.products.map((p) => {
                  const recipe = page.kits.get(p.id);
                  const canBuild = recipe ? buildableKits(recipe, stock, assembling).reduce((sum, b) => sum + b.kits, 0) : 0;
                  return (
                    <tr>
                      <td class="sku">
                        {/* The SKU's link covers the whole row (catalog CSS): a click anywhere on it opens the product. */}
                        <a class="row-link" href={`/console/catalog/${p.id}`} safe>
                          {p.sku}
                        </a>
                      </td>
                      <td class="title">
                        {p.title ? <span safe>{p.title}</span> : <span class="muted">No title</span>}
                      </td>
                      <td class="brand" safe>
                        {p.brand ?? ''}
                      </td>
                      <td class="num price" safe>
                        {p.price === null ? '–' : formatMoney(p.price, ctx.settings)}
                      </td>
                      <td class="num stock">
                        <span safe>{availableText(available.get(p.id) ?? 0, recipe !== undefined)}</span>
                        {recipe ? (
                          <span class="sub">
                            <span class="badge">Kit</span> <span safe>{`can assemble ${canBuild.toLocaleString('en-US')}`}</span>
                          </span>
                        ) : (
                          ''
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {previous || next ? (
          <nav class="pager" aria-label="Pages">
            {previous ? <a href={catalogHref(q, previous)}>{searchingBack ? '← Search further back' : '← Previous page'}</a> : ''}
            {next ? <a href={catalogHref(q, next)}>{searchingOn ? 'Search further →' : 'Next page →'}</a> : <span class="muted">End of the list.</span>}
          </nav>
        ) : page.products.length > 0 ? (
          <p class="muted">End of the list.</p>
        ) : (
          ''
        )}
      </Layout>,
    );
  });
}
