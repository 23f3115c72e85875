import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx, type Tx } from '../../../../db/tx.js';
import type { InstallationView } from '../../../../domain/accounts/installations.js';
import { listAccountWarehouses, type WarehouseRow } from '../../../../domain/accounts/warehouses.js';
import { findProductBySku, findProductsBySkus } from '../../../../domain/catalog/products.js';
import { AppError } from '../../../../domain/errors.js';
import { listRuleOverrides } from '../../../../domain/inventory/channel-rule-overrides-page.js';
import { previewRules, readSkuStock } from '../../../../domain/inventory/channel-rule-preview.js';
import type { ChannelRuleOverride, ChannelRules } from '../../../../domain/inventory/channel-rules.js';
import { loadChannelRules, replaceChannelRules, type ChannelRulesInput } from '../../../../domain/inventory/channel-rules-store.js';
import { enqueueChannelRulesJob } from '../../../../jobs/handlers/apply-channel-rules.js';
import { Pager, field, formAction } from '../../components.js';
import { Layout, type PageContext } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { flash, sellerOf, type SellerUser } from '../../session.js';
import { idParam, queryText } from '../params.js';
import {
  emptyExceptionForm,
  exceptionFormOf,
  exceptionInput,
  notInCatalog,
  readExceptionForm,
  readRulesForm,
  rulesFormOf,
  rulesInput,
  skuCanHaveException,
  storedInput,
  storeProblems,
  type ExceptionForm,
  type FormProblem,
  type RulesForm,
} from './inventory-rules-form.js';
import { ExceptionFormView, OverridesTable, PreviewView, RulesFormView } from './inventory-rules-view.js';
import { storefrontOfSeller } from './storefront.js';

/**
 * A storefront's Inventory rules page (issue 28, resolutions §9): how much of the seller's stock the channel
 * is shown. The forms save through the same store as PUT …/storefronts/{id}/inventory-rules
 * (replaceChannelRules, the whole set replaced) and queue the move of the listings in the same transaction;
 * each form changes its own part and sends the rest as stored. Exceptions are listed a page at a time.
 */

const EXCEPTIONS_PAGE = 50;

interface Target {
  user: SellerUser;
  sf: InstallationView;
  name: string;
  base: string;
}

const nameOf = (sf: InstallationView) => sf.storefrontName ?? `Storefront ${sf.installationId}`;

function Crumbs({ sf, name }: { sf: InstallationView; name: string }) {
  return (
    <p class="crumbs">
      <a href={`/console/apps/storefronts/${sf.installationId}`} safe>{`← ${name}`}</a>
    </p>
  );
}

interface MainView {
  t: Target;
  ctx: PageContext;
  rules: ChannelRules;
  warehouses: WarehouseRow[];
  rulesForm: RulesForm;
  rulesProblems: FormProblem[];
  previewSku: string;
  filter: string;
  after: string;
}

async function mainPage(deps: Deps, v: MainView): Promise<string> {
  const { t, ctx, rules, warehouses } = v;
  const db = deps.db.db;
  const [page, found] = await Promise.all([
    listRuleOverrides(db, t.user.accountId, t.sf.installationId, v.filter, v.after === '' ? null : v.after, EXCEPTIONS_PAGE),
    readSkuStock(db, t.user.accountId, t.sf.installationId, v.previewSku),
  ]);
  const preview = found ? previewRules(rules, found.sku, found.stock, warehouses) : null;
  const own = warehouses.filter((w) => !w.channelFulfilled);
  const names = new Map(warehouses.map((w) => [w.id, w.name]));
  return (
    <Layout ctx={ctx} title={`Inventory rules · ${t.name}`}>
      <Crumbs sf={t.sf} name={t.name} />
      <h1 safe>{`Inventory rules · ${t.name}`}</h1>
      <p class="lead" safe>
        {`How many units ${t.name} is told it can sell of each SKU. Showing a channel less than you have keeps it from overselling what other channels sell at the same time. Orders are never refused: a channel that sells more than it was shown backorders as usual.`}
      </p>
      <RulesFormView action={t.base} csrfToken={ctx.csrfToken} form={v.rulesForm} problems={v.rulesProblems} warehouses={own} channelWarehouses={warehouses.filter((w) => w.channelFulfilled)} />
      <PreviewView base={t.base} typed={v.previewSku} found={found} preview={preview} storefrontName={t.name} />
      <section aria-labelledby="exceptions-title">
        <h2 id="exceptions-title" safe>
          {`Exceptions for single SKUs (${page.total.toLocaleString('en-US')})`}
        </h2>
        <p class="muted">An exception changes some of the rules for one SKU; what it leaves as “same” follows the rules for every SKU.</p>
        {page.total > 0 ? (
          <form method="get" action={`${t.base}#exceptions-title`} class="inline" role="search">
            <label>
              <span>SKU starts with</span>
              <input name="q" value={v.filter} />
            </label>
            <button type="submit">Filter</button>
          </form>
        ) : (
          ''
        )}
        <OverridesTable page={page} names={names} base={t.base} csrfToken={ctx.csrfToken} filter={v.filter} />
        {page.overrides.length > 0 ? <Pager base={t.base} params={{ q: v.filter }} cursorName="after" next={page.next} /> : ''}
        <ExceptionFormView action={`${t.base}/exception`} csrfToken={ctx.csrfToken} form={emptyExceptionForm()} problems={[]} warehouses={own} editing={false} storefront={rules} />
      </section>
    </Layout>
  );
}

function ExceptionPage({ t, ctx, form, problems, editing, rules, warehouses }: { t: Target; ctx: PageContext; form: ExceptionForm; problems: FormProblem[]; editing: boolean; rules: ChannelRules; warehouses: WarehouseRow[] }) {
  const title = editing ? `Exception for ${form.sku}` : 'Add an exception';
  return (
    <Layout ctx={ctx} title={`${title} · ${t.name}`}>
      <p class="crumbs">
        <a href={t.base} safe>{`← Inventory rules · ${t.name}`}</a>
      </p>
      <h1 safe>{title}</h1>
      <ExceptionFormView action={`${t.base}/exception`} csrfToken={ctx.csrfToken} form={form} problems={problems} warehouses={warehouses.filter((w) => !w.channelFulfilled)} editing={editing} storefront={rules} />
    </Layout>
  );
}

/** A catalog SKU as typed, else in any capitals when that names one product only; null when none. */
async function catalogSku(tx: Tx, accountId: number, typed: string): Promise<string | null> {
  const exact = await findProductBySku(tx, accountId, typed);
  if (exact) return exact.sku;
  const loose = await findProductsBySkus(tx, accountId, [typed], false);
  return loose.length === 1 ? loose[0]!.sku : null;
}

const overridesOf = (rules: ChannelRules): ({ sku: string } & ChannelRuleOverride)[] => [...rules.skuOverrides].map(([sku, o]) => ({ sku, ...o }));

/** The store's field refusals (400 with violations), else rethrown (a 404, a bug). */
function violationsOf(error: unknown) {
  if (error instanceof AppError && error.code === 'INVALID_ARGUMENT' && error.violations.length > 0) return error.violations;
  throw error;
}

/**
 * The stored rules, read to be changed in this transaction. Each form sends the whole set back, so two saves
 * at once must not both start from the same set (the second would drop the first's exception): on
 * PostgreSQL the storefront's installation row is locked first (SQLite runs one writer at a time anyway).
 */
async function rulesToChange(tx: Tx, deps: Deps, t: Target): Promise<ChannelRules> {
  if (deps.db.dialect === 'postgres') {
    await tx.selectFrom('installations').select('id').where('account_id', '=', t.user.accountId).where('id', '=', t.sf.installationId).forUpdate().execute();
  }
  return loadChannelRules(tx, t.user.accountId, t.sf.installationId);
}

/** Replaces the rules and queues the listings' move when something changed, in one transaction (as the PUT route does). */
async function save(tx: Tx, deps: Deps, t: Target, input: ChannelRulesInput): Promise<boolean> {
  const now = deps.clock.now();
  const { changed } = await replaceChannelRules(tx, t.user.accountId, t.sf.installationId, input, now);
  if (changed) await enqueueChannelRulesJob(tx, t.user.accountId, t.sf.installationId, now);
  return changed;
}

const savedText = (t: Target, changed: boolean, what: string) =>
  changed ? `${what} ${t.name}’s listings are being updated to them in the background; the preview shows the new quantities now.` : 'Nothing changed: the rules were already these.';

export function registerInventoryRulePages(scope: FastifyInstance, deps: Deps): void {
  const target = async (request: FastifyRequest, reply: FastifyReply): Promise<Target | null> => {
    const user = sellerOf(request, reply);
    if (!user) return null;
    const sf = await storefrontOfSeller(deps, user.accountId, idParam(request.params, 'storefrontId'));
    return { user, sf, name: nameOf(sf), base: `/console/apps/storefronts/${sf.installationId}/inventory-rules` };
  };
  const load = (t: Target) => Promise.all([loadChannelRules(deps.db.db, t.user.accountId, t.sf.installationId), listAccountWarehouses(deps.db.db, t.user.accountId)]);

  scope.get('/apps/storefronts/:storefrontId/inventory-rules', { schema: { hide: true } }, async (request, reply) => {
    const t = await target(request, reply);
    if (!t) return reply;
    const [rules, warehouses] = await load(t);
    const ctx = pageContext(request, reply, t.user, '/console/apps');
    const view: MainView = {
      t,
      ctx,
      rules,
      warehouses,
      rulesForm: rulesFormOf(rules),
      rulesProblems: [],
      previewSku: queryText(request.query, 'sku').trim(),
      filter: queryText(request.query, 'q').trim(),
      after: queryText(request.query, 'after'),
    };
    return sendHtml(reply, mainPage(deps, view));
  });

  // The rules for every SKU; the exceptions are sent again as stored.
  scope.post('/apps/storefronts/:storefrontId/inventory-rules', { schema: { hide: true } }, async (request, reply) => {
    const t = await target(request, reply);
    if (!t) return reply;
    const form = readRulesForm(request.body);
    const { fields, problems } = rulesInput(form);
    let refused = problems;
    let changed = false;
    if (refused.length === 0) {
      try {
        changed = await withTx(deps.db.db, async (tx) => {
          const overrides = overridesOf(await rulesToChange(tx, deps, t));
          try {
            return await save(tx, deps, t, { ...fields, skuOverrides: overrides });
          } catch (error) {
            refused = storeProblems(violationsOf(error), overrides, { form: 'rules' });
            throw error;
          }
        });
      } catch (error) {
        if (refused.length === 0) throw error;
      }
    }
    if (refused.length > 0) {
      const [rules, warehouses] = await load(t);
      const ctx = pageContext(request, reply, t.user, '/console/apps');
      return sendHtml(reply, mainPage(deps, { t, ctx, rules, warehouses, rulesForm: form, rulesProblems: refused, previewSku: '', filter: '', after: '' }), 400);
    }
    flash(deps, request, reply, 'ok', savedText(t, changed, 'Rules saved.'));
    return reply.redirect(t.base, 303);
  });

  // One SKU's exception, new or edited (the form for it; a SKU without one gets an empty form).
  scope.get('/apps/storefronts/:storefrontId/inventory-rules/exception', { schema: { hide: true } }, async (request, reply) => {
    const t = await target(request, reply);
    if (!t) return reply;
    const [rules, warehouses] = await load(t);
    const sku = queryText(request.query, 'sku').trim();
    const existing = rules.skuOverrides.get(sku);
    const form = existing ? exceptionFormOf(sku, existing) : emptyExceptionForm(sku);
    const ctx = pageContext(request, reply, t.user, '/console/apps');
    return sendHtml(reply, <ExceptionPage t={t} ctx={ctx} form={form} problems={[]} editing={existing !== undefined} rules={rules} warehouses={warehouses} />);
  });

  // Adds or replaces one SKU's exception in the stored set; the rest is sent again as stored.
  scope.post('/apps/storefronts/:storefrontId/inventory-rules/exception', { schema: { hide: true } }, async (request, reply) => {
    const t = await target(request, reply);
    if (!t) return reply;
    const form = readExceptionForm(request.body);
    const { override, problems, skuFits } = exceptionInput(form);
    let refused = problems;
    let outcome: { changed: boolean; sku: string; added: boolean } | null = null;
    if (refused.length === 0) {
      try {
        outcome = await withTx(deps.db.db, async (tx) => {
          const sku = skuFits ? await catalogSku(tx, t.user.accountId, form.sku) : null;
          if (sku === null) {
            refused = [{ id: 'x-sku', text: notInCatalog(form.sku) }];
            return null;
          }
          const rules = await rulesToChange(tx, deps, t);
          const overrides = overridesOf(rules);
          const at = overrides.findIndex((o) => o.sku === sku);
          const index = at === -1 ? overrides.length : at;
          overrides[index] = { sku, ...override };
          try {
            return { changed: await save(tx, deps, t, { ...storedInput(rules), skuOverrides: overrides }), sku, added: at === -1 };
          } catch (error) {
            refused = storeProblems(violationsOf(error), overrides, { form: 'exception', exceptionIndex: index });
            throw error;
          }
        });
      } catch (error) {
        if (refused.length === 0) throw error;
      }
    }
    if (refused.length > 0 || outcome === null) {
      const [rules, warehouses] = await load(t);
      const ctx = pageContext(request, reply, t.user, '/console/apps');
      const editing = rules.skuOverrides.has(form.sku);
      return sendHtml(reply, <ExceptionPage t={t} ctx={ctx} form={form} problems={refused} editing={editing} rules={rules} warehouses={warehouses} />, 400);
    }
    const what = outcome.added ? `Exception for ${outcome.sku} added.` : `Exception for ${outcome.sku} saved.`;
    flash(deps, request, reply, 'ok', savedText(t, outcome.changed, what));
    return reply.redirect(`${t.base}?${new URLSearchParams({ sku: outcome.sku }).toString()}#preview`, 303);
  });

  scope.post('/apps/storefronts/:storefrontId/inventory-rules/exception/remove', { schema: { hide: true } }, async (request, reply) => {
    const t = await target(request, reply);
    if (!t) return reply;
    const sku = field(request.body, 'sku');
    return formAction(deps, request, reply, t.base, '', async () => {
      const none = `${sku} has no exception (any more); nothing changed.`;
      // A SKU the API's schema refuses cannot have an exception: nothing to read.
      if (!skuCanHaveException(sku)) return none;
      return withTx(deps.db.db, async (tx) => {
        const rules = await rulesToChange(tx, deps, t);
        if (!rules.skuOverrides.has(sku)) return none;
        const overrides = overridesOf(rules).filter((o) => o.sku !== sku);
        let changed: boolean;
        try {
          changed = await save(tx, deps, t, { ...storedInput(rules), skuOverrides: overrides });
        } catch (error) {
          // Another part of the stored set no longer holds (a warehouse gone since): say which, in words.
          const problems = storeProblems(violationsOf(error), overrides, { form: 'exception', exceptionIndex: -1 });
          throw new AppError('INVALID_ARGUMENT', `Nothing was removed. ${problems.map((p) => p.text).join(' ')}`);
        }
        return savedText(t, changed, `Exception for ${sku} removed: it follows the rules for every SKU.`);
      });
    });
  });
}
