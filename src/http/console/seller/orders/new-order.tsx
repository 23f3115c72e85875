import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { findCustomStore, listCustomStores, type CustomStoreView } from '../../../../domain/accounts/custom-stores.js';
import { sellerPrincipalFor } from '../../../../domain/accounts/principal.js';
import { suggestSkus, type SkuSuggestion } from '../../../../domain/catalog/sku-suggestions.js';
import { AppError, notFound } from '../../../../domain/errors.js';
import { fulfillmentPort } from '../../../../domain/fulfillment/port.js';
import { createSalesOrder } from '../../../../domain/orders/create-order.js';
import { validateCreateInput } from '../../../../domain/orders/order-input.js';
import { CreateSalesOrderBody } from '../../../schemas/sales-orders-v1.js';
import { field } from '../../components.js';
import { schemaErrors } from '../../form-check.js';
import { Layout, type PageContext } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { flash, sellerOf, type SellerUser } from '../../session.js';
import {
  domainProblems,
  emptyOrderForm,
  newFormToken,
  orderInput,
  readOrderForm,
  schemaProblems,
  withMoreLines,
  type FormProblem,
  type OrderForm,
} from './new-order-form.js';
import { NewOrderForm, SkuOptions } from './new-order-view.js';

/**
 * Orders → New order (issue 24 item 3): an order typed by the seller into one of the account's custom
 * stores, checked and created by POST /v1/salesOrder's own rules and code: its body schema (the same
 * compiled validator), then createSalesOrder (validateCreateInput, routing, reservations, fulfillment work).
 * Idempotent like the API: the order's reference (typed, or made from the form's token) names it in its
 * store, so a form sent twice opens the order the first one created.
 */

function NewOrderPage({ ctx, stores, form, problems, suggestions }: { ctx: PageContext; stores: CustomStoreView[]; form: OrderForm; problems: FormProblem[]; suggestions: SkuSuggestion[] }) {
  return (
    <Layout ctx={ctx} title="New order">
      <p class="crumbs">
        <a href="/console/orders">← Orders</a>
      </p>
      <h1>New order</h1>
      <p class="muted">
        For a sale made by phone, by email or in person. The order is checked and stored like an order a sales channel sends: stock is reserved and the order goes to a
        warehouse to be shipped.
      </p>
      <NewOrderForm csrfToken={ctx.csrfToken} currency={ctx.settings.currencyCode} stores={stores} form={form} problems={problems} suggestions={suggestions} />
    </Layout>
  );
}

async function showForm(deps: Deps, user: SellerUser, ctx: PageContext, form: OrderForm, problems: FormProblem[]) {
  const [stores, suggestions] = await Promise.all([listCustomStores(deps.db.db, user.accountId), suggestSkus(deps.db.db, deps.db.dialect, user.accountId, '')]);
  return <NewOrderPage ctx={ctx} stores={stores} form={form} problems={problems} suggestions={suggestions} />;
}

/** The store id as posted: another account's, a missing or a malformed one is the same 404. */
async function storeOf(deps: Deps, accountId: number, raw: string): Promise<CustomStoreView> {
  const missing = () => notFound('That store is not one of your stores. Open Orders, then New order, and choose a store from the list.');
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2147483647) throw missing();
  try {
    return await findCustomStore(deps.db.db, accountId, id);
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') throw missing();
    throw error;
  }
}

/** The success message's note on SKUs the catalog does not have (a few named, the rest counted: a flash is a cookie). */
function unknownSkusNote(skus: string[]): string {
  if (skus.length === 0) return '';
  const named = skus.slice(0, 3).map((s) => (s.length > 60 ? `${s.slice(0, 59)}…` : s));
  const list = skus.length > 3 ? `${named.join(', ')} and ${skus.length - 3} more` : named.join(', ');
  return skus.length === 1
    ? ` SKU ${list} is not in your catalog: its line waits until you add the product and stock it.`
    : ` SKUs ${list} are not in your catalog: their lines wait until you add the products and stock them.`;
}

export function registerSellerNewOrder(scope: FastifyInstance, deps: Deps): void {
  scope.get('/orders/new', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const stores = await listCustomStores(deps.db.db, user.accountId);
    const preselected = stores.find((s) => s.default) ?? stores[0];
    const form = emptyOrderForm(newFormToken(deps.clock.now()), preselected ? String(preselected.integrationId) : '');
    const ctx = pageContext(request, reply, user, '/console/orders');
    return sendHtml(reply, showForm(deps, user, ctx, form, []));
  });

  // The SKU lookup as you type (htmx swaps these options into the form's datalist); bounded by one index range.
  scope.get('/orders/sku-suggestions', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const query = request.query as Record<string, unknown>;
    const typed = typeof query.line_sku === 'string' ? query.line_sku : typeof query.q === 'string' ? query.q : '';
    const suggestions = await suggestSkus(deps.db.db, deps.db.dialect, user.accountId, typed);
    reply.header('cache-control', 'no-store');
    return sendHtml(reply, <SkuOptions suggestions={suggestions} />);
  });

  scope.post('/orders/new', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const now = deps.clock.now();
    const form = readOrderForm(request.body, now);
    const ctx = pageContext(request, reply, user, '/console/orders');
    if (field(request.body, 'do') === 'more') return sendHtml(reply, showForm(deps, user, ctx, withMoreLines(form), []));
    const store = await storeOf(deps, user.accountId, form.store);
    const { input, rowOfLine, problems } = orderInput(form, store.integrationId, now);
    // The API's body schema, exactly as the route checks it, and the domain's checks that need no database
    // (validateCreateInput, which createSalesOrder runs again): every problem shown at once, one per input.
    const refused = [...problems, ...schemaProblems(schemaErrors(CreateSalesOrderBody, input), form, rowOfLine)];
    try {
      validateCreateInput(input);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'INVALID_ARGUMENT' || error.violations.length === 0) throw error;
      for (const p of domainProblems(error.violations, form, rowOfLine)) if (!refused.some((r) => r.id === p.id)) refused.push(p);
    }
    if (refused.length > 0) return sendHtml(reply, showForm(deps, user, ctx, form, refused), 400);
    let result;
    try {
      result = await withTx(deps.db.db, (tx) => createSalesOrder(tx, sellerPrincipalFor(user.accountId), input, now, fulfillmentPort));
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'INVALID_ARGUMENT' || error.violations.length === 0) throw error;
      return sendHtml(reply, showForm(deps, user, ctx, form, domainProblems(error.violations, form, rowOfLine)), 400);
    }
    const order = result.order;
    const unknown = order.products.filter((l) => l.sku === null).map((l) => l.requestedSku);
    if (!result.created) {
      flash(deps, request, reply, 'ok', `Order ${order.orderNumber} (reference ${input.channelOrderId}) was already in ${store.name}, so nothing new was created. Here it is, unchanged.`);
    } else {
      flash(deps, request, reply, 'ok', `Order ${order.orderNumber} is created in ${store.name} (reference ${input.channelOrderId}).${unknownSkusNote(unknown)}`);
    }
    return reply.redirect(`/console/orders/${order.orderNumber}`, 303);
  });
}
