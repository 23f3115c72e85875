import type { WarehouseRow } from '../../../../domain/accounts/warehouses.js';
import type { ChannelRuleFields, ChannelRuleOverride } from '../../../../domain/inventory/channel-rules.js';
import type { RulePreview, SkuStock } from '../../../../domain/inventory/channel-rule-preview.js';
import type { OverridesPage } from '../../../../domain/inventory/channel-rule-overrides-page.js';
import { CsrfField } from '../../layout.js';
import { GENERAL, type ExceptionForm, type FormProblem, type RulesForm } from './inventory-rules-form.js';

/**
 * The markup of a storefront's Inventory rules page: the rules for every SKU, the per-SKU exceptions (a
 * filtered, paged list, and one form to add or edit one), and the preview of one SKU worked out step by
 * step. Every form posts and redirects without JavaScript; a refused form comes back with each problem
 * next to its field and listed at the top.
 */

type Problems = Map<string, string>;

const units = (n: number) => `${n.toLocaleString('en-US')} unit${n === 1 ? '' : 's'}`;

function Problem({ id, problems }: { id: string; problems: Problems }) {
  const text = problems.get(id);
  if (text === undefined) return '';
  return (
    <span class="error" id={`${id}-error`} safe>
      {text}
    </span>
  );
}

/** The field a summary line names (the line links to it). */
const LABELS: Record<string, string> = {
  percent: 'Share of stock shown',
  safety: 'Keep back (safety stock)',
  max: 'Show at most',
  fixed: 'Always show (made to order)',
  warehouses: 'Warehouses that feed this channel',
  sku: 'SKU',
};

function ProblemSummary({ problems, what }: { problems: FormProblem[]; what: string }) {
  if (problems.length === 0) return '';
  return (
    <div class="flash bad" role="alert" id={GENERAL}>
      <p safe>{problems.length === 1 ? `${what} not saved. Please fix this:` : `${what} not saved. Please fix these ${problems.length} things:`}</p>
      <ul>
        {problems.map((p) => (
          <li>
            {p.id === GENERAL ? (
              <span safe>{p.text}</span>
            ) : (
              <a href={`#${p.id}`} safe>
                {`${LABELS[p.id.slice(2)] ?? ''}: ${p.text}`}
              </a>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function NumberField({ id, name, label, hint, value, problems, suffix }: { id: string; name: string; label: string; hint: string; value: string; problems: Problems; suffix?: string }) {
  const invalid = problems.has(id);
  return (
    <div>
      <label for={id}>
        <span safe>{label}</span>
        <span class="hint" id={`${id}-hint`} safe>
          {hint}
        </span>
      </label>
      <span class="with-unit">
        <input id={id} name={name} value={value} inputmode="numeric" aria-describedby={invalid ? `${id}-hint ${id}-error` : `${id}-hint`} aria-invalid={invalid ? 'true' : undefined} />
        {suffix ? (
          <span aria-hidden="true" safe>
            {suffix}
          </span>
        ) : (
          ''
        )}
      </span>
      <Problem id={id} problems={problems} />
    </div>
  );
}

/** Warehouse choice: all of the seller's (including ones added later) or only the ticked ones; the channel's own are never offered. */
function WarehouseChoice({
  id,
  feed,
  ticked,
  warehouses,
  problems,
  same,
}: {
  id: string;
  feed: string;
  ticked: string[];
  warehouses: WarehouseRow[];
  problems: Problems;
  same?: string;
}) {
  const invalid = problems.has(id);
  const name = (suffix: string) => `${id}-${suffix}`;
  return (
    <fieldset class="choice wide" id={id} aria-describedby={invalid ? `${id}-error` : undefined}>
      <legend>Warehouses that feed this channel</legend>
      {same ? (
        <label class="inline">
          <input type="radio" name="feed" value="same" checked={feed === 'same'} id={name('same')} />
          <span safe>{same}</span>
        </label>
      ) : (
        ''
      )}
      <label class="inline">
        <input type="radio" name="feed" value="all" checked={feed === 'all'} />
        <span>All my warehouses, also ones added later</span>
      </label>
      <label class="inline">
        <input type="radio" name="feed" value="some" checked={feed === 'some'} />
        <span>Only the ones ticked:</span>
      </label>
      <ul class="plain ticks">
        {warehouses.map((w) => (
          <li>
            <label class="inline">
              <input type="checkbox" name="warehouse" value={String(w.id)} checked={ticked.includes(String(w.id))} />
              <span safe>{w.name}</span>
            </label>
          </li>
        ))}
      </ul>
      <Problem id={id} problems={problems} />
    </fieldset>
  );
}

export function RulesFormView({ action, csrfToken, form, problems: list, warehouses, channelWarehouses }: { action: string; csrfToken: string; form: RulesForm; problems: FormProblem[]; warehouses: WarehouseRow[]; channelWarehouses: WarehouseRow[] }) {
  const problems: Problems = new Map(list.map((p) => [p.id, p.text]));
  // A refused form answers 400, which htmx does not swap in: the form posts as a plain page load.
  return (
    <form method="post" action={action} class="product-form rules-form" hx-boost="false">
      <CsrfField token={csrfToken} />
      <ProblemSummary problems={list} what="The rules were" />
      <fieldset>
        <legend>Rules for every SKU</legend>
        <div class="fields">
          <NumberField id="f-percent" name="percent" label="Share of stock shown" hint="1 to 100; rounded down" value={form.percent} problems={problems} suffix="%" />
          <NumberField id="f-safety" name="safety" label="Keep back (safety stock)" hint="at or under this many, the channel sees 0" value={form.safety} problems={problems} suffix="units" />
          <NumberField id="f-max" name="max" label="Show at most" hint="empty: no limit" value={form.max} problems={problems} suffix="units" />
          <NumberField id="f-fixed" name="fixed" label="Always show (made to order)" hint="empty: show what is in stock" value={form.fixed} problems={problems} suffix="units" />
          <WarehouseChoice id="f-warehouses" feed={form.feed} ticked={form.warehouses} warehouses={warehouses} problems={problems} />
        </div>
        {channelWarehouses.length > 0 ? (
          <p class="hint" safe>{`Not listed: ${channelWarehouses.map((w) => w.name).join(', ')}. The channel fulfils from there with its own stock, which it always sees in full.`}</p>
        ) : (
          ''
        )}
      </fieldset>
      <div>
        <button type="submit">Save rules</button>
      </div>
    </form>
  );
}

function ModeChoice({
  legend,
  name,
  mode,
  options,
  input,
  problems,
}: {
  legend: string;
  name: string;
  mode: string;
  options: [string, string][];
  input: { id: string; name: string; label: string; value: string };
  problems: Problems;
}) {
  const invalid = problems.has(input.id);
  return (
    <fieldset class="choice">
      <legend safe>{legend}</legend>
      {options.map(([value, text]) => (
        <label class="inline">
          <input type="radio" name={name} value={value} checked={mode === value} />
          <span safe>{text}</span>
        </label>
      ))}
      <label for={input.id} class="sub-label">
        <span safe>{input.label}</span>
      </label>
      <input id={input.id} name={input.name} value={input.value} inputmode="numeric" aria-describedby={invalid ? `${input.id}-error` : undefined} aria-invalid={invalid ? 'true' : undefined} />
      <Problem id={input.id} problems={problems} />
    </fieldset>
  );
}

export function ExceptionFormView({
  action,
  csrfToken,
  form,
  problems: list,
  warehouses,
  editing,
  storefront,
}: {
  action: string;
  csrfToken: string;
  form: ExceptionForm;
  problems: FormProblem[];
  warehouses: WarehouseRow[];
  editing: boolean;
  storefront: ChannelRuleFields;
}) {
  const problems: Problems = new Map(list.map((p) => [p.id, p.text]));
  const skuInvalid = problems.has('x-sku');
  return (
    <form method="post" action={action} class="product-form rules-form" hx-boost="false" id="exception-form">
      <CsrfField token={csrfToken} />
      <ProblemSummary problems={list} what="The exception was" />
      <fieldset>
        <legend>{editing ? 'Exception for one SKU' : 'Add an exception for one SKU'}</legend>
        <p class="hint">Leave a value on “same as every SKU” (or empty) to follow the rules for every SKU; change only what differs for this SKU.</p>
        <div class="fields">
          {editing ? (
            <div>
              <span class="label-text">SKU</span>
              <strong safe>{form.sku}</strong>
              <input type="hidden" name="sku" value={form.sku} />
            </div>
          ) : (
            <div>
              <label for="x-sku">
                <span>SKU</span>
              </label>
              <input id="x-sku" name="sku" value={form.sku} aria-describedby={skuInvalid ? 'x-sku-error' : undefined} aria-invalid={skuInvalid ? 'true' : undefined} />
              <Problem id="x-sku" problems={problems} />
            </div>
          )}
          <NumberField id="x-percent" name="percent" label="Share of stock shown" hint={`empty: same as every SKU (${storefront.percent} %)`} value={form.percent} problems={problems} suffix="%" />
          <NumberField id="x-safety" name="safety" label="Keep back (safety stock)" hint={`empty: same as every SKU (${units(storefront.safetyQuantity)})`} value={form.safety} problems={problems} suffix="units" />
          <ModeChoice
            legend="Show at most"
            name="max_mode"
            mode={form.maxMode}
            options={[
              ['same', `Same as every SKU (${storefront.maxQuantity === null ? 'no limit' : units(storefront.maxQuantity)})`],
              ['none', 'No limit'],
              ['set', 'At most:'],
            ]}
            input={{ id: 'x-max', name: 'max', label: 'Most units shown', value: form.max }}
            problems={problems}
          />
          <ModeChoice
            legend="Always show (made to order)"
            name="fixed_mode"
            mode={form.fixedMode}
            options={[
              ['same', `Same as every SKU (${storefront.fixedQuantity === null ? 'from stock' : units(storefront.fixedQuantity)})`],
              ['no', 'No, show what is in stock'],
              ['set', 'Always show:'],
            ]}
            input={{ id: 'x-fixed', name: 'fixed', label: 'Units always shown', value: form.fixed }}
            problems={problems}
          />
          <WarehouseChoice id="x-warehouses" feed={form.feed} ticked={form.warehouses} warehouses={warehouses} problems={problems} same="Same as every SKU" />
        </div>
      </fieldset>
      <div>
        <button type="submit">{editing ? 'Save exception' : 'Add exception'}</button>
      </div>
    </form>
  );
}

/** One exception's value for a field in words; null when it follows the storefront. */
export function overrideWords(o: ChannelRuleOverride, names: ReadonlyMap<number, string>) {
  return {
    percent: o.percent === undefined ? null : `${o.percent} %`,
    safety: o.safetyQuantity === undefined ? null : units(o.safetyQuantity),
    max: o.maxQuantity === undefined ? null : o.maxQuantity === null ? 'No limit' : units(o.maxQuantity),
    fixed: o.fixedQuantity === undefined ? null : o.fixedQuantity === null ? 'No, from stock' : units(o.fixedQuantity),
    warehouses: o.warehouseIds === undefined ? null : o.warehouseIds === null ? 'All mine' : o.warehouseIds.map((id) => names.get(id) ?? `Warehouse ${id}`).join(', '),
  };
}

function Cell({ label, value }: { label: string; value: string | null }) {
  return (
    <td data-label={label}>
      {value === null ? (
        <span class="muted">same</span>
      ) : (
        <span safe>{value}</span>
      )}
    </td>
  );
}

export function OverridesTable({ page, names, base, csrfToken, filter }: { page: OverridesPage; names: ReadonlyMap<number, string>; base: string; csrfToken: string; filter: string }) {
  if (page.overrides.length === 0) {
    return <p class="empty">{page.total === 0 ? 'No exceptions: every SKU follows the rules above.' : 'No exception’s SKU starts with that text.'}</p>;
  }
  return (
    <div class="table-wrap rows-stack">
      <table class="exceptions">
        <caption class="skip">Exceptions for single SKUs</caption>
        <thead>
          <tr>
            <th scope="col">SKU</th>
            <th scope="col">Share shown</th>
            <th scope="col">Keep back</th>
            <th scope="col">Show at most</th>
            <th scope="col">Always show</th>
            <th scope="col">Warehouses</th>
            <th scope="col">
              <span class="skip">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {page.overrides.map((o) => {
            const w = overrideWords(o, names);
            const q = new URLSearchParams({ sku: o.sku }).toString();
            return (
              <tr>
                <th scope="row" class="sku" safe>
                  {o.sku}
                </th>
                <Cell label="Share shown" value={w.percent} />
                <Cell label="Keep back" value={w.safety} />
                <Cell label="Show at most" value={w.max} />
                <Cell label="Always show" value={w.fixed} />
                <Cell label="Warehouses" value={w.warehouses} />
                <td class="row-actions">
                  <a href={`${base}/exception?${q}`} aria-label={`Edit the exception for ${o.sku}`}>
                    Edit
                  </a>
                  <a href={`${base}?${new URLSearchParams({ sku: o.sku, ...(filter !== '' ? { q: filter } : {}) }).toString()}#preview`} aria-label={`Preview ${o.sku}`}>
                    Preview
                  </a>
                  <form method="post" action={`${base}/exception/remove`} class="inline" hx-confirm={`Remove the exception for ${o.sku}? It will follow the rules for every SKU.`}>
                    <CsrfField token={csrfToken} />
                    <input type="hidden" name="sku" value={o.sku} />
                    <button type="submit" class="secondary" aria-label={`Remove the exception for ${o.sku}`}>
                      Remove
                    </button>
                  </form>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

const ROLE_WORDS = { feeds: 'Feeds this channel', 'not-feeding': 'Does not feed this channel', channel: 'The channel’s own stock: not ruled, it sees all of it' } as const;

/** "15 available → 50 % = 7 → above the safety stock of 2 → capped at 5 → shows 5". */
export function stepsLine(p: RulePreview): string {
  const r = p.ruled;
  const parts = [`${r.available.toLocaleString('en-US')} available`];
  if (p.rule.fixedQuantity !== null) return `${parts[0]} → always shows ${p.rule.fixedQuantity.toLocaleString('en-US')} (made to order) → shows ${r.quantity.toLocaleString('en-US')}`;
  parts.push(`${p.rule.percent} % = ${r.afterPercent!.toLocaleString('en-US')}`);
  if (p.rule.safetyQuantity > 0) {
    parts.push(r.afterSafety === 0 && r.afterPercent! > 0 ? `not above the safety stock of ${p.rule.safetyQuantity.toLocaleString('en-US')} → 0` : r.afterPercent === 0 ? `nothing above the safety stock of ${p.rule.safetyQuantity.toLocaleString('en-US')}` : `above the safety stock of ${p.rule.safetyQuantity.toLocaleString('en-US')}`);
  }
  if (p.rule.maxQuantity !== null) parts.push(r.decidedBy === 'cap' ? `capped at ${p.rule.maxQuantity.toLocaleString('en-US')}` : `under the limit of ${p.rule.maxQuantity.toLocaleString('en-US')}`);
  parts.push(`shows ${r.quantity.toLocaleString('en-US')}`);
  return parts.join(' → ');
}

/** Which fields of the rule came from the SKU's exception, in words. */
function fromException(o: ChannelRuleOverride | null): string | null {
  if (o === null) return null;
  const names = [
    o.percent !== undefined ? 'share shown' : null,
    o.safetyQuantity !== undefined ? 'keep back' : null,
    o.maxQuantity !== undefined ? 'show at most' : null,
    o.fixedQuantity !== undefined ? 'always show' : null,
    o.warehouseIds !== undefined ? 'warehouses' : null,
  ].filter((n): n is string => n !== null);
  return names.length === 0 ? 'This SKU has an exception that changes nothing.' : `This SKU has its own exception for: ${names.join(', ')}.`;
}

export function PreviewView({ base, typed, found, preview, storefrontName }: { base: string; typed: string; found: SkuStock | null; preview: RulePreview | null; storefrontName: string }) {
  return (
    <section aria-labelledby="preview-title" id="preview">
      <h2 id="preview-title">Preview a SKU</h2>
      <form method="get" action={`${base}#preview`} class="inline" role="search">
        <label>
          <span>SKU</span>
          <input name="sku" value={typed} />
        </label>
        <button type="submit">Show what it lists</button>
      </form>
      {typed === '' ? (
        <p class="muted" safe>{`Type a SKU to see what ${storefrontName} is shown for it now, and why.`}</p>
      ) : found === null || preview === null ? (
        <p class="empty" safe>{`${typed} is not in your catalog.`}</p>
      ) : (
        <div class="panel preview" aria-live="polite">
          <h3 safe>{found.title ? `${found.sku} · ${found.title}` : found.sku}</h3>
          <p class="result" safe>{`${storefrontName} is shown ${units(preview.ruled.quantity)}.`}</p>
          <p safe>{stepsLine(preview)}</p>
          {fromException(preview.override) !== null ? (
            <p>
              <span safe>{fromException(preview.override)!}</span> <a href={`${base}/exception?${new URLSearchParams({ sku: found.sku }).toString()}`}>Edit it</a>
            </p>
          ) : (
            <p class="muted">This SKU follows the rules for every SKU.</p>
          )}
          {preview.warehouses.length === 0 ? (
            <p class="muted">No warehouse holds this SKU.</p>
          ) : (
            <div class="table-wrap rows-stack">
              <table>
                <caption class="skip">Available units per warehouse</caption>
                <thead>
                  <tr>
                    <th scope="col">Warehouse</th>
                    <th scope="col" class="num">
                      Available
                    </th>
                    <th scope="col">For this channel</th>
                    <th scope="col" class="num">
                      Shown from it
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {preview.warehouses.map((w) => (
                    <tr>
                      <th scope="row" safe>
                        {w.name}
                      </th>
                      <td class="num" data-label="Available" safe>
                        {w.available < 0 ? `0 (oversold by ${(-w.available).toLocaleString('en-US')})` : w.available.toLocaleString('en-US')}
                      </td>
                      <td data-label="For this channel">
                        {ROLE_WORDS[w.role]}
                      </td>
                      <td class="num" data-label="Shown from it">
                        {w.role === 'feeds' ? w.shown.toLocaleString('en-US') : '–'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {found.listed === null ? (
            <p class="muted" safe>{`${found.sku} is not listed on ${storefrontName} yet: this is what it would be shown once listed.`}</p>
          ) : found.listed.merchantQuantity !== preview.ruled.quantity ? (
            <p class="muted" safe>{`${storefrontName} still reads ${units(found.listed.merchantQuantity)}: the change is on its way to the listings.`}</p>
          ) : (
            ''
          )}
        </div>
      )}
    </section>
  );
}
