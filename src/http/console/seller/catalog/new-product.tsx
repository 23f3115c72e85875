import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { createProductFromForm } from '../../../../domain/reports/imports/product-form.js';
import { Layout, type PageContext } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { flash, sellerOf } from '../../session.js';
import { EMPTY_FORM, ProductForm, readProductForm, type ProductFormState } from './product-form.js';

function NewProductPage({ ctx, state }: { ctx: PageContext; state: ProductFormState }) {
  return (
    <Layout ctx={ctx} title="New product">
      <p class="crumbs">
        <a href="/console/catalog">← Catalog</a>
      </p>
      <h1>New product</h1>
      <p class="muted">Only the SKU is needed; fill the rest now or later. Stock is added on the Inventory page.</p>
      <ProductForm action="/console/catalog/new" csrfToken={ctx.csrfToken} state={state} creating={true} submit="Create product" />
    </Layout>
  );
}

/** /console/catalog/new: the form for a product the account does not have yet. */
export function registerCatalogNewProduct(scope: FastifyInstance, deps: Deps): void {
  scope.get('/catalog/new', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    return sendHtml(reply, <NewProductPage ctx={pageContext(request, reply, user, '/console/catalog')} state={EMPTY_FORM} />);
  });

  scope.post('/catalog/new', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const input = readProductForm(request.body);
    const result = await withTx(deps.db.db, (tx) => createProductFromForm(tx, user.accountId, input, deps.clock.now()));
    if (!result.ok) {
      return sendHtml(reply, <NewProductPage ctx={pageContext(request, reply, user, '/console/catalog')} state={{ input, problems: result.problems }} />, 400);
    }
    flash(deps, request, reply, 'ok', `Product ${input.sku.trim()} is created.`);
    return reply.redirect(`/console/catalog/${result.productId}`, 303);
  });
}
