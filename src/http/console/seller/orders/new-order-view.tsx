import type { CustomStoreView } from '../../../../domain/accounts/custom-stores.js';
import type { SkuSuggestion } from '../../../../domain/catalog/sku-suggestions.js';
import { CsrfField } from '../../layout.js';
import { generatedReference, inputId, LINE_ROWS_STEP, MAX_LINE_ROWS, SERVICE_CHOICES, type FormProblem, type OrderForm } from './new-order-form.js';

/**
 * The manual order form's markup: labelled fields in groups, each problem next to its input and listed at
 * the top (in the form's order, each a link to its input). Works without JavaScript; with it, htmx fills
 * the SKU suggestions as the seller types.
 */

interface Props {
  csrfToken: string;
  currency: string;
  stores: CustomStoreView[];
  form: OrderForm;
  problems: FormProblem[];
  suggestions: SkuSuggestion[];
}

type Problems = Map<string, string>;

/** The SKU datalist's options: the SKU, and its title to tell products apart (also the lookup's answer). */
export function SkuOptions({ suggestions }: { suggestions: SkuSuggestion[] }) {
  return (
    <>
      {suggestions.map((s) => (
        <option value={s.sku} safe>
          {s.title ?? ''}
        </option>
      ))}
    </>
  );
}

function Problem({ id, problems }: { id: string; problems: Problems }) {
  const text = problems.get(id);
  if (text === undefined) return '';
  // Next to its input a line's problem needs no "Line 2:" (the list at the top does).
  const here = text.replace(/^Line \d+: (.)/, (_, first: string) => first.toUpperCase());
  return (
    <span class="error" id={`${id}-error`} safe>
      {here}
    </span>
  );
}

function TextField({
  name,
  label,
  value,
  problems,
  hint,
  type = 'text',
  autocomplete,
  wide,
  row,
}: {
  name: string;
  label: string;
  value: string;
  problems: Problems;
  hint?: string;
  type?: string;
  autocomplete?: string;
  wide?: boolean;
  row?: number;
}) {
  const id = inputId(name, row);
  const hintId = hint ? `${id}-hint` : undefined;
  const problem = problems.has(id);
  const describedBy = [hintId, problem ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div class={wide ? 'wide' : undefined}>
      <label for={id}>
        <span safe>{label}</span>
        {hint ? (
          <span class="hint" id={hintId} safe>
            {hint}
          </span>
        ) : (
          ''
        )}
      </label>
      <input id={id} type={type} name={name} value={value} autocomplete={autocomplete} aria-describedby={describedBy} aria-invalid={problem ? 'true' : undefined} />
      <Problem id={id} problems={problems} />
    </div>
  );
}

/** The address fields of one side (ship or bill), with the browser's address autofill names. */
function AddressFields({ prefix, address, problems }: { prefix: 'ship' | 'bill'; address: OrderForm['ship']; problems: Problems }) {
  const section = prefix === 'ship' ? 'shipping' : 'billing';
  return (
    <div class="fields">
      <TextField name={`${prefix}_name`} label="Name" value={address.name} problems={problems} autocomplete={`${section} name`} />
      <TextField name={`${prefix}_company`} label="Company" hint="optional" value={address.company} problems={problems} autocomplete={`${section} organization`} />
      <TextField name={`${prefix}_line1`} label="Address line 1" value={address.line1} problems={problems} autocomplete={`${section} address-line1`} wide />
      <TextField name={`${prefix}_line2`} label="Address line 2" hint="optional" value={address.line2} problems={problems} autocomplete={`${section} address-line2`} wide />
      <TextField name={`${prefix}_city`} label="City" value={address.city} problems={problems} autocomplete={`${section} address-level2`} />
      <TextField name={`${prefix}_state`} label="State or region" hint="optional" value={address.state} problems={problems} autocomplete={`${section} address-level1`} />
      <TextField name={`${prefix}_postal`} label="Postal code" value={address.postal} problems={problems} autocomplete={`${section} postal-code`} />
      <TextField name={`${prefix}_country`} label="Country" hint="2-letter code, like US or GB" value={address.country} problems={problems} autocomplete={`${section} country`} />
    </div>
  );
}

function ProblemSummary({ problems }: { problems: FormProblem[] }) {
  if (problems.length === 0) return '';
  return (
    <div class="flash bad" role="alert" id="problems">
      <p safe>{problems.length === 1 ? 'The order was not created. Please fix this:' : `The order was not created. Please fix these ${problems.length} things:`}</p>
      <ul>
        {problems.map((p) => (
          <li>
            <a href={`#${p.id === 'f-general' ? 'problems' : p.id}`} safe>
              {p.text}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Where each input sits on the page, so the summary lists problems top to bottom. */
function ordered(problems: FormProblem[], form: OrderForm): FormProblem[] {
  const order = [
    'f-general',
    'f-store',
    'f-reference',
    'f-payment',
    'f-service',
    'f-note',
    'f-customer_name',
    'f-customer_email',
    'f-customer_phone',
    ...['name', 'company', 'line1', 'line2', 'city', 'state', 'postal', 'country'].map((p) => `f-ship_${p}`),
    ...['name', 'company', 'line1', 'line2', 'city', 'state', 'postal', 'country'].map((p) => `f-bill_${p}`),
    'f-lines',
    ...form.lines.flatMap((_, i) => [`f-line_sku-${i}`, `f-line_qty-${i}`, `f-line_price-${i}`]),
  ];
  const at = (id: string) => {
    const i = order.indexOf(id);
    return i === -1 ? order.length : i;
  };
  return [...problems].sort((a, b) => at(a.id) - at(b.id));
}

export function NewOrderForm({ csrfToken, currency, stores, form, problems: unordered, suggestions }: Props) {
  const sorted = ordered(unordered, form);
  const problems: Problems = new Map(sorted.map((p) => [p.id, p.text]));
  const storeProblem = problems.has('f-store');
  const linesProblem = problems.has('f-lines');
  // A page with problems answers 400, which htmx does not swap in: the form posts as a plain page load.
  return (
    <form method="post" action="/console/orders/new" class="product-form order-form" hx-boost="false">
      <CsrfField token={csrfToken} />
      <input type="hidden" name="form_token" value={form.token} />
      <ProblemSummary problems={sorted} />
      <fieldset>
        <legend>Order</legend>
        <div class="fields">
          <div>
            <label for="f-store">
              <span>Store</span>
              <span class="hint" id="f-store-hint">
                where the order is filed
              </span>
            </label>
            <select id="f-store" name="store" aria-describedby={storeProblem ? 'f-store-hint f-store-error' : 'f-store-hint'} aria-invalid={storeProblem ? 'true' : undefined}>
              {stores.map((s) => (
                <option value={String(s.integrationId)} selected={String(s.integrationId) === form.store} safe>
                  {s.name}
                </option>
              ))}
            </select>
            <Problem id="f-store" problems={problems} />
          </div>
          <TextField name="reference" label="Order reference" hint={`optional; if empty: ${generatedReference(form.token)}`} value={form.reference} problems={problems} />
          <div>
            <label for="f-service">
              <span>Shipping service</span>
            </label>
            <select id="f-service" name="service" aria-invalid={problems.has('f-service') ? 'true' : undefined} aria-describedby={problems.has('f-service') ? 'f-service-error' : undefined}>
              <option value="" selected={form.service === ''}>
                Not chosen
              </option>
              {SERVICE_CHOICES.map((s) => (
                <option value={s} selected={form.service === s}>
                  {s}
                </option>
              ))}
            </select>
            <Problem id="f-service" problems={problems} />
          </div>
          <fieldset class="choice" id="f-payment">
            <legend>Payment</legend>
            <label class="inline">
              <input type="radio" name="payment" value="paid" checked={form.payment === 'paid'} /> Paid
            </label>
            <label class="inline">
              <input type="radio" name="payment" value="unpaid" checked={form.payment === 'unpaid'} /> Not paid yet
            </label>
            <Problem id="f-payment" problems={problems} />
          </fieldset>
          <div class="wide">
            <label for="f-note">
              <span>Customer's note</span>
              <span class="hint">optional, shown on the order</span>
            </label>
            <textarea id="f-note" name="note" rows="2" aria-invalid={problems.has('f-note') ? 'true' : undefined} aria-describedby={problems.has('f-note') ? 'f-note-error' : undefined} safe>
              {form.note}
            </textarea>
            <Problem id="f-note" problems={problems} />
          </div>
        </div>
        <p class="hint muted">An order not paid yet waits for Mark paid on its page, and is cancelled if still unpaid after 30 days.</p>
      </fieldset>
      <fieldset>
        <legend>Customer</legend>
        <div class="fields">
          <TextField name="customer_name" label="Name" value={form.customerName} problems={problems} autocomplete="name" />
          <TextField name="customer_email" label="Email" hint="optional" type="email" value={form.customerEmail} problems={problems} autocomplete="email" />
          <TextField name="customer_phone" label="Phone" hint="optional; kept with the ship-to address" type="tel" value={form.customerPhone} problems={problems} autocomplete="tel" />
        </div>
      </fieldset>
      <fieldset>
        <legend>Ship to</legend>
        <p class="hint muted">Leave every field empty for an order without an address. With an address, its name, first line, city and postal code are needed.</p>
        <AddressFields prefix="ship" address={form.ship} problems={problems} />
      </fieldset>
      <fieldset class="bill-to">
        <legend>Bill to</legend>
        <label class="inline">
          <input type="checkbox" name="bill_same" value="yes" checked={form.billSame} /> Same as ship to
        </label>
        <div class="bill-fields">
          <p class="hint muted">Used only when "Same as ship to" is not ticked.</p>
          <AddressFields prefix="bill" address={form.bill} problems={problems} />
        </div>
      </fieldset>
      <fieldset id="f-lines" aria-describedby={linesProblem ? 'f-lines-hint f-lines-error' : 'f-lines-hint'}>
        <legend>Lines</legend>
        <p class="hint muted" id="f-lines-hint">
          Start typing a SKU to pick one from your catalog. A SKU that is not in your catalog is still accepted: its line waits, not sent to any warehouse, until you add
          the product and stock it. Empty lines are ignored; for more lines, use Add more lines below.
        </p>
        <Problem id="f-lines" problems={problems} />
        <datalist id="sku-options">
          <SkuOptions suggestions={suggestions} />
        </datalist>
        <div class="order-lines">
          {form.lines.map((l, row) => {
            const skuId = inputId('line_sku', row);
            const qtyId = inputId('line_qty', row);
            const priceId = inputId('line_price', row);
            const described = (id: string) => (problems.has(id) ? `${id}-error` : undefined);
            const invalid = (id: string) => (problems.has(id) ? 'true' : undefined);
            return (
              <div class="order-line">
                <span class="line-no" aria-hidden="true" safe>
                  {String(row + 1)}
                </span>
                <div>
                  <label for={skuId}>
                    <span>
                      SKU<span class="skip" safe>{`, line ${row + 1}`}</span>
                    </span>
                  </label>
                  <input
                    id={skuId}
                    type="text"
                    name="line_sku"
                    value={l.sku}
                    list="sku-options"
                    autocomplete="off"
                    hx-get="/console/orders/sku-suggestions"
                    hx-trigger="input changed delay:200ms, focus"
                    hx-target="#sku-options"
                    hx-swap="innerHTML"
                    hx-sync="this:replace"
                    aria-describedby={described(skuId)}
                    aria-invalid={invalid(skuId)}
                  />
                  <Problem id={skuId} problems={problems} />
                </div>
                <div>
                  <label for={qtyId}>
                    <span>
                      Quantity<span class="skip" safe>{`, line ${row + 1}`}</span>
                    </span>
                  </label>
                  <input id={qtyId} type="text" inputmode="numeric" name="line_qty" value={l.qty} aria-describedby={described(qtyId)} aria-invalid={invalid(qtyId)} />
                  <Problem id={qtyId} problems={problems} />
                </div>
                <div>
                  <label for={priceId}>
                    <span>
                      <span safe>{`Unit price (${currency})`}</span>
                      <span class="skip" safe>{`, line ${row + 1}`}</span>
                    </span>
                  </label>
                  <input id={priceId} type="text" inputmode="decimal" name="line_price" value={l.price} aria-describedby={described(priceId)} aria-invalid={invalid(priceId)} />
                  <Problem id={priceId} problems={problems} />
                </div>
              </div>
            );
          })}
        </div>
      </fieldset>
      {/* Create order first: Enter in a field presses the form's first button. */}
      <div class="actions">
        <button type="submit" name="do" value="create">
          Create order
        </button>
        {form.lines.length < MAX_LINE_ROWS ? (
          <button type="submit" name="do" value="more" class="secondary">
            {`Add ${LINE_ROWS_STEP} more lines`}
          </button>
        ) : (
          ''
        )}
        <a href="/console/orders">Cancel</a>
      </div>
    </form>
  );
}
