import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { listAccountWarehouses } from '../../../../domain/accounts/warehouses.js';
import { getProductById, type ProductById } from '../../../../domain/catalog/product-by-id.js';
import { stockRowsFor, type StockRow } from '../../../../domain/inventory/stock.js';
import { updateProductFromForm } from '../../../../domain/reports/imports/product-form.js';
import { formatMoney, formatTs, Table, type DisplaySettings } from '../../components.js';
import { Layout, type PageContext } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { flash, sellerOf } from '../../session.js';
import { idParam } from '../params.js';
import { availableByProduct, buildableKits } from './catalog-query.js';
import { ProductForm, readProductForm, stateOfProduct, type ProductFormState } from './product-form.js';

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function Facts({ product, available, buildable, settings }: { product: ProductById; available: number; buildable: number; settings: DisplaySettings }) {
  const v = product.view;
  const money = (name: string) => (text(v[name]) === null ? 'Not set' : formatMoney(text(v[name]), settings));
  const image = text(v.image_url);
  return (
    <dl class="facts">
      <dt>SKU</dt>
      <dd safe>{v.sku}</dd>
      <dt>Price</dt>
      <dd safe>{money('price')}</dd>
      <dt>List price (MSRP)</dt>
      <dd safe>{money('msrp')}</dd>
      <dt>Brand</dt>
      <dd safe>{text(v.brand) ?? 'Not set'}</dd>
      <dt>Available</dt>
      <dd safe>
        {product.components.length > 0
          ? `${available.toLocaleString('en-US')} assembled ${available === 1 ? 'kit' : 'kits'}; ${buildable.toLocaleString('en-US')} more can be assembled from the components in stock`
          : `${available.toLocaleString('en-US')} ${available === 1 ? 'unit' : 'units'} across your warehouses`}
      </dd>
      {image ? (
        <>
          <dt>Image</dt>
          <dd>
            {/* A link, never a picture: the console's CSP loads images from this service only (docs/console.md). */}
            <a href={image} rel="noreferrer noopener" target="_blank">
              Open the image <span class="muted">(opens another site)</span>
            </a>
          </dd>
        </>
      ) : (
        ''
      )}
      <dt>Last changed</dt>
      <dd safe>{formatTs(text(v.updated_at), settings)}</dd>
      <dt>Added</dt>
      <dd safe>{formatTs(text(v.created_at), settings)}</dd>
    </dl>
  );
}

function StockTable({ product, stock, warehouses }: { product: ProductById; stock: StockRow[]; warehouses: { id: number; name: string; channelFulfilled: boolean }[] }) {
  const own = stock.filter((r) => r.productId === product.id);
  const kit = product.components.length > 0;
  const buildable = kit
    ? new Map(
        buildableKits(
          product.components,
          stock,
          warehouses.filter((w) => !w.channelFulfilled).map((w) => w.id),
        ).map((b) => [b.warehouseId, b.kits]),
      )
    : new Map<number, number>();
  const shown = warehouses.filter((w) => own.some((r) => r.warehouseId === w.id) || (buildable.get(w.id) ?? 0) > 0);
  if (shown.length === 0) return <p class="muted">Not in stock in any warehouse yet. Add stock on the Inventory page.</p>;
  return (
    <Table caption="Stock per warehouse" head={kit ? ['Warehouse', 'Assembled', 'Can assemble', 'On hand', 'Reserved'] : ['Warehouse', 'Available', 'On hand', 'Reserved']}>
      {shown.map((w) => {
        const row = own.find((r) => r.warehouseId === w.id);
        return (
          <tr>
            <td safe>{w.name}</td>
            <td class="num" safe>
              {String(row?.available ?? 0)}
            </td>
            {kit ? (
              <td class="num" safe>
                {w.channelFulfilled ? '–' : String(buildable.get(w.id) ?? 0)}
              </td>
            ) : (
              ''
            )}
            <td class="num" safe>
              {String(row?.onhand ?? 0)}
            </td>
            <td class="num" safe>
              {String(row?.reserved ?? 0)}
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

function Components({ product, available }: { product: ProductById; available: Map<number, number> }) {
  if (product.components.length === 0) return '';
  return (
    <>
      <h2>Kit components</h2>
      <p class="muted">
        Each kit is made of these. <a href={`/console/inventory/kits?edit=${encodeURIComponent(product.view.sku)}#define`}>Change the components</a>
      </p>
      <Table caption="Kit components" head={['SKU', 'Title', 'Units per kit', 'Available']}>
        {product.components.map((c) => (
          <tr>
            <td>
              <a href={`/console/catalog/${c.productId}`} safe>
                {c.sku}
              </a>
            </td>
            <td safe>{c.title ?? ''}</td>
            <td class="num" safe>
              {String(c.quantity)}
            </td>
            <td class="num" safe>
              {String(available.get(c.productId) ?? 0)}
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}

async function productPage(deps: Deps, ctx: PageContext, accountId: number, product: ProductById, state: ProductFormState): Promise<string> {
  const db = deps.db.db;
  const [stock, warehouses] = await Promise.all([
    stockRowsFor(db, accountId, [product.id, ...product.components.map((c) => c.productId)], null),
    listAccountWarehouses(db, accountId),
  ]);
  const available = availableByProduct(stock);
  const assembling = warehouses.filter((w) => !w.channelFulfilled).map((w) => w.id);
  const buildable = buildableKits(product.components, stock, assembling).reduce((sum, b) => sum + b.kits, 0);
  const title = text(product.view.title);
  return (
    <Layout ctx={ctx} title={title ?? product.view.sku}>
      <p class="crumbs">
        <a href="/console/catalog">← Catalog</a>
      </p>
      <h1 safe>{title ?? product.view.sku}</h1>
      {product.components.length > 0 ? (
        <p>
          <span class="badge">Kit</span>
        </p>
      ) : (
        ''
      )}
      <Facts product={product} available={available.get(product.id) ?? 0} buildable={buildable} settings={ctx.settings} />
      <h2>Stock</h2>
      <StockTable product={product} stock={stock} warehouses={warehouses} />
      <Components product={product} available={available} />
      <h2 id="edit">Edit the product</h2>
      <ProductForm action={`/console/catalog/${product.id}`} csrfToken={ctx.csrfToken} state={state} creating={false} submit="Save changes" />
    </Layout>
  );
}

/** /console/catalog/{productId}: one product, its stock and kit components, and its edit form. */
export function registerCatalogProductPage(scope: FastifyInstance, deps: Deps): void {
  scope.get('/catalog/:productId', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const product = await getProductById(deps.db.db, user.accountId, idParam(request.params, 'productId'));
    const ctx = pageContext(request, reply, user, '/console/catalog');
    return sendHtml(reply, productPage(deps, ctx, user.accountId, product, stateOfProduct(product.view)));
  });

  scope.post('/catalog/:productId', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const productId = idParam(request.params, 'productId');
    const input = readProductForm(request.body);
    const result = await withTx(deps.db.db, (tx) => updateProductFromForm(tx, user.accountId, productId, input, deps.clock.now()));
    if (!result.ok) {
      // The page again with what was typed and why it was not saved.
      const product = await getProductById(deps.db.db, user.accountId, productId);
      const ctx = pageContext(request, reply, user, '/console/catalog');
      return sendHtml(reply, productPage(deps, ctx, user.accountId, product, { input, problems: result.problems }), 400);
    }
    flash(deps, request, reply, 'ok', 'Your changes to the product are saved.');
    return reply.redirect(`/console/catalog/${productId}`, 303);
  });
}
