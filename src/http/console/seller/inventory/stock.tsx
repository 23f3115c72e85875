import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { canUpdateInventory } from '../../../../domain/accounts/warehouses.js';
import { failedPrecondition } from '../../../../domain/errors.js';
import { searchStockBySkuPrefix } from '../../../../domain/inventory/console-stock.js';
import { applyInventoryItemsV1, finishInventoryBatch, loadInventoryUpdateContext, newInventoryBatch } from '../../../../domain/inventory/v1-update.js';
import { backorderPort } from '../../../../domain/fulfillment/backorder-port.js';
import { InventoryUpdateV1 } from '../../../schemas/inventory-v1.js';
import { planInventoryUpdate } from '../../../v1/inventory/update-body.js';
import { Field, Pager, PostForm, Select, field, formAction } from '../../components.js';
import { checkForm, formInt, formText } from '../../form-check.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { consolePrincipal } from '../principal.js';
import { InventoryTabs, PAGE_SIZE, queryText } from './nav.js';
import { stockFiguresOf } from './stock-figures.js';
import { controlledStockNote } from './stock-words.js';
import { StockTable } from './stock-table.js';

const MODES: [string, string][] = [
  ['delta_quantity', 'Add or remove units (delta)'],
  ['quantity', 'Set available'],
  ['onhand_quantity', 'Set on hand'],
];


/** /console/inventory: stock per SKU and warehouse, searched by SKU prefix; the adjust form (POST /v1/inventory's domain). */
export function registerStockPages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/inventory', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const principal = consolePrincipal(user);
    const prefix = queryText(request.query, 'sku').trim();
    const after = queryText(request.query, 'after');
    const page = await searchStockBySkuPrefix(deps.db.db, user.accountId, prefix, after === '' ? null : after, PAGE_SIZE);
    const figures = await stockFiguresOf(deps.db.db, user.accountId, page.products);
    const names = new Map(page.warehouses.map((w) => [w.id, w]));
    const here = new URLSearchParams({ ...(prefix !== '' ? { sku: prefix } : {}), ...(after !== '' ? { after } : {}) }).toString();
    const back = here === '' ? '/console/inventory' : `/console/inventory?${here}`;
    const writable = page.warehouses.filter((w) => canUpdateInventory(principal, w));
    const controlled = page.warehouses.filter((w) => !canUpdateInventory(principal, w));
    const ctx = pageContext(request, reply, user, '/console/inventory');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Inventory">
        <h1>Inventory</h1>
        <InventoryTabs current="/console/inventory" />
        <form method="get" action="/console/inventory" class="inline" role="search">
          <Field label="SKU starts with" name="sku" value={prefix} />
          <button type="submit">Search</button>
        </form>
        <p class="muted">
          <strong>Available</strong> = on hand − reserved for orders. <strong>Backordered</strong>: units orders wait for in that warehouse. <strong>Inbound</strong>: units on open
          inbound shipments, not received yet.
        </p>
        <StockTable page={page} figures={figures} names={names} back={back} csrfToken={ctx.csrfToken} settings={user.settings} writable={(w) => canUpdateInventory(principal, w)} />
        {page.products.length === 0 ? <p class="muted">{prefix === '' ? 'No products yet: adjust stock below to add a SKU.' : 'No SKU starts with that text.'}</p> : ''}
        <Pager base="/console/inventory" params={{ sku: prefix }} cursorName="after" next={page.next} />

        <h2>Adjust stock</h2>
        {writable.length === 0 ? (
          <p class="muted">No warehouse of this account can be adjusted here.</p>
        ) : (
          <PostForm action="/console/inventory/adjust" csrfToken={ctx.csrfToken} class="stack">
            <Field label="SKU" name="sku" required hint="an unknown SKU is created" />
            <Select label="Warehouse" name="warehouseId" options={writable.map((w) => [String(w.id), w.name] as [string, string])} />
            <Select label="Change" name="mode" options={MODES} />
            <Field label="Quantity" name="quantity" type="number" step="1" required />
            <Field label="Bin location" name="binLocation" hint="optional" />
            <button type="submit">Apply</button>
          </PostForm>
        )}
        {controlled.length > 0 ? (
          <ul>
            {controlled.map((w) => (
              <li safe>{controlledStockNote(w.name)}</li>
            ))}
          </ul>
        ) : (
          ''
        )}
      </Layout>,
    );
  });

  scope.post('/inventory/adjust', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const body = request.body;
    const mode = field(body, 'mode');
    const sku = field(body, 'sku').trim();
    const back = `/console/inventory?sku=${encodeURIComponent(sku)}`;
    return formAction(deps, request, reply, back, 'Stock updated.', async () => {
      const principal = consolePrincipal(user);
      const item: Record<string, unknown> = { SKU: sku, warehouseId: formInt(field(body, 'warehouseId')) };
      const known = MODES.some(([m]) => m === mode) ? mode : 'delta_quantity';
      item[known] = formInt(field(body, 'quantity'));
      const bin = formText(field(body, 'binLocation'));
      if (bin !== undefined) item.binLocation = bin;
      // The body POST /v1/inventory takes, checked by its schema and planned by its code: one rule set.
      const plan = planInventoryUpdate(checkForm(InventoryUpdateV1, { products: [item] }));
      const context = await loadInventoryUpdateContext(deps.db.db, principal);
      const outcome = await withTx(deps.db.db, async (tx) => {
        const batch = newInventoryBatch();
        const now = deps.clock.now();
        const [only] = await applyInventoryItemsV1(tx, principal, context, plan.items, now, plan.asOf, batch);
        await finishInventoryBatch(tx, principal.accountId, batch, now, backorderPort);
        return only!;
      });
      // What POST /v1/inventory answers as a failed item (success false) is a refusal the seller reads.
      if (!outcome.result.success) {
        const refused = failedPrecondition(outcome.result.errorMessage);
        refused.refusal = outcome.refusal;
        throw refused;
      }
      return `Stock of ${outcome.result.SKU} updated.`;
    });
  });
}
