import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { hasLowStockAlerts, listLowStock, setLowStockThreshold, type LowStockCursor } from '../../../../domain/inventory/low-stock.js';
import { LowStockThresholdBody } from '../../../admin/products/low-stock-threshold.js';
import { Pager, field, formAction } from '../../components.js';
import { checkForm, formInt } from '../../form-check.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { InventoryTabs, PAGE_SIZE, queryText } from './nav.js';
import { backorderedTotal, inboundUnits, stockFiguresOf } from './stock-figures.js';
import { InboundCell, units } from './stock-table.js';
import { LOW_STOCK_RULE } from './stock-words.js';

/** A page link's cursor: "<shortfall>.<product id>"; anything else starts from the top. */
function cursorOf(text: string): LowStockCursor | null {
  const match = /^(\d{1,9})\.(\d{1,15})$/.exec(text);
  return match ? { shortfall: Number(match[1]), productId: Number(match[2]) } : null;
}

/** Where a threshold form sends the seller back: a stock page of this section, else the stock page. */
function backOf(text: string): string {
  return /^\/console\/inventory(\/low-stock)?(\?[A-Za-z0-9%._~=&+-]*)?$/.test(text) ? text : '/console/inventory';
}

/** /console/inventory/low-stock: the SKUs at or below their low-stock alert; the alert's form handler. */
export function registerLowStockPages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/inventory/low-stock', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const after = cursorOf(queryText(request.query, 'after'));
    const page = await listLowStock(deps.db.db, user.accountId, after, PAGE_SIZE);
    const figures = await stockFiguresOf(
      deps.db.db,
      user.accountId,
      page.rows.map((r) => ({ id: r.productId, sku: r.sku, stock: [] })),
    );
    const watched = page.rows.length === 0 && after === null ? await hasLowStockAlerts(deps.db.db, user.accountId) : true;
    const ctx = pageContext(request, reply, user, '/console/inventory');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Low stock">
        <h1>Low stock</h1>
        <InventoryTabs current="/console/inventory/low-stock" />
        <p class="muted">
          SKUs with no more units available than their low-stock alert, furthest below first. Available counts every warehouse but the ones a sales channel
          stocks itself. Set or clear an alert on the Stock tab.
        </p>
        {page.rows.length === 0 ? (
          <p>
            {!watched
              ? 'No SKU has a low-stock alert yet. On the Stock tab, type the number of units at which you want to hear about a SKU and press Save.'
              : after === null
                ? 'Nothing is low: every SKU with an alert has more units available than its alert.'
                : 'No more low SKUs.'}{' '}
            <a href="/console/inventory">Go to Stock</a>
          </p>
        ) : (
          <div class="table-wrap rows-stack">
            <table class="low-stock">
              <caption class="skip">SKUs at or below their low-stock alert</caption>
              <thead>
                <tr>
                  <th scope="col">SKU</th>
                  <th scope="col">Title</th>
                  <th scope="col" class="num">
                    Available
                  </th>
                  <th scope="col" class="num">
                    Alert at
                  </th>
                  <th scope="col" class="num">
                    Short by
                  </th>
                  <th scope="col" class="num">
                    Backordered
                  </th>
                  <th scope="col">Inbound</th>
                </tr>
              </thead>
              <tbody>
                {page.rows.map((r) => {
                  const sku = figures.get(r.productId) ?? { rows: [], unplacedBackorder: 0 };
                  const inbound = sku.rows.flatMap((w) => w.inbound);
                  const backordered = backorderedTotal(sku);
                  return (
                    <tr>
                      <td>
                        <a href={`/console/inventory?sku=${encodeURIComponent(r.sku)}`} safe>
                          {r.sku}
                        </a>
                      </td>
                      <td safe>{r.title ?? ''}</td>
                      <td class="num" data-label="Available" safe>
                        {units(r.available)}
                      </td>
                      <td class="num" data-label="Alert at" safe>
                        {units(r.threshold)}
                      </td>
                      <td class="num" data-label="Short by" safe>
                        {units(r.shortfall)}
                      </td>
                      <td class="num" data-label="Backordered">
                        {backordered > 0 ? <strong safe>{units(backordered)}</strong> : '0'}
                      </td>
                      <td data-label="Inbound">
                        {inbound.length > 1 ? <span class="muted" safe>{`${units(inboundUnits(sku.rows))} in all:`}</span> : ''}
                        <InboundCell inbound={inbound} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {page.rows.length > 0 ? (
          <Pager base="/console/inventory/low-stock" params={{}} cursorName="after" next={page.next ? `${page.next.shortfall}.${page.next.productId}` : null} />
        ) : (
          ''
        )}
      </Layout>,
    );
  });

  scope.post('/inventory/low-stock-threshold', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const body = request.body;
    const sku = field(body, 'sku');
    const back = backOf(field(body, 'back'));
    return formAction(deps, request, reply, back, 'Saved.', async () => {
      // PUT …/low-stock-threshold's body; "1,000" is read as typed with its thousands separators, blank clears.
      const typed = formInt(field(body, 'threshold').replace(/[,\s]/g, '')) ?? null;
      const threshold = checkForm(LowStockThresholdBody, { lowStockThreshold: typed }, { lowStockThreshold: { says: LOW_STOCK_RULE } }).lowStockThreshold;
      await setLowStockThreshold(deps.db.db, user.accountId, sku, threshold);
      return threshold === null ? `${sku}: no low-stock alert.` : `${sku}: low-stock alert at ${units(threshold)} or fewer units available.`;
    });
  });
}
