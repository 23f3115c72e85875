import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { listAccountWarehouses } from '../../../../domain/accounts/warehouses.js';
import { listKits } from '../../../../domain/catalog/kit-list.js';
import { getKit, setKitComponents, type KitView } from '../../../../domain/catalog/kits.js';
import { invalidField } from '../../../../domain/errors.js';
import { stockRowsFor, type StockRow } from '../../../../domain/inventory/stock.js';
import { KitComponentsBody, Sku } from '../../../admin/kits/schemas.js';
import { Field, Pager, PostForm, Table, field, formAction } from '../../components.js';
import { checkForm, formInt } from '../../form-check.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { InventoryTabs, PAGE_SIZE, queryText } from './nav.js';

const BASE = '/console/inventory/kits';

/** The kit's SKU of the form, checked by the same SKU rule as the admin route's path. */
const KitSkuForm = Type.Object({ sku: Sku });

/**
 * The components of the define form: one per line, "SKU, quantity" — a textarea works without JavaScript
 * for any number of components; PUT …/kit's body schema then checks each entry.
 */
function parseComponents(text: string): Record<string, unknown>[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) throw invalidField('components', 'give at least one component: "SKU, quantity" per line (Remove makes a kit a single SKU again)');
  return lines.map((line) => {
    const [sku = '', quantity = ''] = line.split(',').map((p) => p.trim());
    return { sku, quantity: formInt(quantity) ?? '' };
  });
}

function recipeText(kit: KitView | null): string {
  return kit ? kit.components.map((c) => `${c.sku}, ${c.quantity}`).join('\n') : '';
}

/** "Main: 4 · Second: 0" for the warehouses whose stock row counts assembled kits. */
function assembledText(rows: StockRow[], names: Map<number, string>): string {
  const counted = rows.filter((r) => r.assembled !== null);
  if (counted.length === 0) return '–';
  return counted.map((r) => `${names.get(r.warehouseId) ?? String(r.warehouseId)}: ${r.assembled}`).join(' · ');
}

/**
 * /console/inventory/kits: the account's kits with their components (keyset-paged on the SKU) and the
 * assembled kits the inventory counts; define, replace or remove a recipe (PUT …/products/{sku}/kit's domain).
 */
export function registerKitPages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/inventory/kits', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const db = deps.db.db;
    const after = queryText(request.query, 'after');
    const editSku = queryText(request.query, 'edit').trim();
    const page = await listKits(db, user.accountId, after === '' ? null : after, PAGE_SIZE);
    const [stock, warehouses, editing] = await Promise.all([
      stockRowsFor(
        db,
        user.accountId,
        page.kits.map((k) => k.productId),
        null,
      ),
      listAccountWarehouses(db, user.accountId),
      // The recipe to edit: a link from the list; an unknown SKU is a 404 page like any bad link.
      editSku === '' ? Promise.resolve(null) : getKit(db, user.accountId, editSku),
    ]);
    const names = new Map(warehouses.map((w) => [w.id, w.name]));
    const ctx = pageContext(request, reply, user, '/console/inventory');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Kits">
        <h1>Kits</h1>
        <InventoryTabs current={BASE} />
        <p class="muted">
          A kit is a product made of other products. Kits are one level deep: a kit cannot contain a kit, nor itself. Orders already routed keep the recipe they were routed with.
        </p>
        <Table caption="Kits and their components, by SKU" head={['Kit SKU', 'Components (units per kit)', 'Assembled kits', '']}>
          {page.kits.map((k) => (
            <tr>
              <td safe>{k.sku}</td>
              <td safe>{k.components.map((c) => `${c.quantity} × ${c.sku}`).join(', ')}</td>
              <td safe>{assembledText(stock.filter((s) => s.productId === k.productId), names)}</td>
              <td>
                <a href={`${BASE}?edit=${encodeURIComponent(k.sku)}#define`} aria-label={`Edit the components of ${k.sku}`}>
                  Edit
                </a>{' '}
                <PostForm action={`${BASE}/remove`} csrfToken={ctx.csrfToken} confirm="Make this product a single SKU again?">
                  <input type="hidden" name="sku" value={k.sku} />
                  <button type="submit" class="danger">
                    Remove
                  </button>
                </PostForm>
              </td>
            </tr>
          ))}
        </Table>
        {page.kits.length === 0 ? <p class="muted">No kits yet.</p> : ''}
        <Pager base={BASE} params={{}} cursorName="after" next={page.next} />

        <h2 id="define">{editing ? 'Replace the components' : 'Define a kit'}</h2>
        <PostForm action={BASE} csrfToken={ctx.csrfToken} class="stack">
          <Field label="Kit SKU" name="sku" value={editing?.sku ?? ''} required hint="an existing product; its components are replaced" />
          <label>
            <span>Components</span>
            <span class="hint">one per line: SKU, units per kit</span>
            <textarea name="components" rows="5" required safe>
              {recipeText(editing)}
            </textarea>
          </label>
          <button type="submit">Save kit</button>
        </PostForm>
      </Layout>,
    );
  });

  scope.post('/inventory/kits', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const body = request.body;
    const sku = field(body, 'sku').trim();
    return formAction(deps, request, reply, BASE, '', async () => {
      checkForm(KitSkuForm, { sku });
      // The body PUT /admin/accounts/{id}/products/{sku}/kit takes, checked by its schema: one rule set.
      const input = checkForm(KitComponentsBody, { components: parseComponents(field(body, 'components')) });
      const kit = await withTx(deps.db.db, (tx) => setKitComponents(tx, user.accountId, sku, input.components, deps.clock.now()));
      return `Kit ${kit.sku} saved: ${kit.components.map((c) => `${c.quantity} × ${c.sku}`).join(', ')}.`;
    });
  });

  scope.post('/inventory/kits/remove', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const sku = field(request.body, 'sku');
    return formAction(deps, request, reply, BASE, `${sku} is a single SKU again.`, async () => {
      checkForm(KitSkuForm, { sku });
      await withTx(deps.db.db, (tx) => setKitComponents(tx, user.accountId, sku, [], deps.clock.now()));
    });
  });
}
