import { randomBytes } from 'node:crypto';
import type { ErrorObject } from 'ajv';
import type { FieldViolation } from '../../../../domain/errors.js';
import type { AddressInput, CreateOrderInput, LineInput } from '../../../../domain/orders/order-input.js';
import { STANDARD_SERVICE_LEVELS } from '../../../../domain/orders/model.js';
import { field, fields } from '../../components.js';

/**
 * The manual order form (console Orders → New order): what the seller typed, the POST /v1/salesOrder body
 * it makes, and the body's problems put back next to the form's fields in the seller's words. The rules
 * themselves are the API's (its body schema, then validateCreateInput and createSalesOrder): nothing here
 * decides whether an order is acceptable, only where a problem is shown and how it reads.
 */

/** Empty line rows a new form offers; "Add more lines" adds as many again. */
export const LINE_ROWS_STEP = 5;
/** Most line rows the form shows (the API takes 500 lines; a form longer than this is a file to import). */
export const MAX_LINE_ROWS = 100;

/** The shipping services a seller may pick: the API's standard levels ("Unknown" is what none means). */
export const SERVICE_CHOICES = STANDARD_SERVICE_LEVELS.filter((l) => l !== 'Unknown');

const ADDRESS_PARTS = ['name', 'company', 'line1', 'line2', 'city', 'state', 'postal', 'country'] as const;
type AddressPart = (typeof ADDRESS_PARTS)[number];
type AddressForm = Record<AddressPart, string>;

export interface LineRow {
  sku: string;
  qty: string;
  price: string;
}

export interface OrderForm {
  /** Makes the order reference when none is typed, so a form sent twice names the same order. */
  token: string;
  store: string;
  reference: string;
  payment: 'paid' | 'unpaid';
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  ship: AddressForm;
  billSame: boolean;
  bill: AddressForm;
  service: string;
  note: string;
  lines: LineRow[];
}

/** A problem the seller fixes: the form field it is about (its input's name and row) and the sentence. */
export interface FormProblem {
  /** The input's id on the page (`f-reference`, `f-line_qty-2`…), or `f-lines` for the lines as a whole. */
  id: string;
  text: string;
}

const TOKEN_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const TOKEN = /^\d{8}-[A-HJ-NP-Z2-9]{6}$/;

/** A new form's token: the day and six random characters (no 0/O or 1/I to misread). */
export function newFormToken(now: Date): string {
  const bytes = randomBytes(6);
  const random = [...bytes].map((b) => TOKEN_ALPHABET[b % TOKEN_ALPHABET.length]).join('');
  return `${now.toISOString().slice(0, 10).replace(/-/g, '')}-${random}`;
}

/** The reference an order gets when the seller leaves it empty. */
export const generatedReference = (token: string) => `MANUAL-${token}`;

const emptyAddress = (): AddressForm => ({ name: '', company: '', line1: '', line2: '', city: '', state: '', postal: '', country: 'US' });
const emptyLines = (n: number): LineRow[] => Array.from({ length: n }, () => ({ sku: '', qty: '', price: '' }));

export function emptyOrderForm(token: string, store: string): OrderForm {
  return {
    token,
    store,
    reference: '',
    payment: 'paid',
    customerName: '',
    customerEmail: '',
    customerPhone: '',
    ship: emptyAddress(),
    billSame: true,
    bill: emptyAddress(),
    service: '',
    note: '',
    lines: emptyLines(LINE_ROWS_STEP),
  };
}

/** The posted form as typed; `now` makes a token when a (hand-made) post carries none. */
export function readOrderForm(body: unknown, now: Date): OrderForm {
  const address = (prefix: string): AddressForm => {
    const out = emptyAddress();
    for (const part of ADDRESS_PARTS) out[part] = field(body, `${prefix}_${part}`);
    return out;
  };
  const skus = fields(body, 'line_sku');
  const qtys = fields(body, 'line_qty');
  const prices = fields(body, 'line_price');
  const count = Math.min(Math.max(skus.length, qtys.length, prices.length), MAX_LINE_ROWS + 1);
  const lines = Array.from({ length: count }, (_, i) => ({ sku: skus[i] ?? '', qty: qtys[i] ?? '', price: prices[i] ?? '' }));
  const token = field(body, 'form_token');
  return {
    token: TOKEN.test(token) ? token : newFormToken(now),
    store: field(body, 'store'),
    reference: field(body, 'reference'),
    payment: field(body, 'payment') === 'unpaid' ? 'unpaid' : 'paid',
    customerName: field(body, 'customer_name'),
    customerEmail: field(body, 'customer_email'),
    customerPhone: field(body, 'customer_phone'),
    ship: address('ship'),
    billSame: field(body, 'bill_same') === 'yes',
    bill: address('bill'),
    service: field(body, 'service'),
    note: field(body, 'note'),
    lines,
  };
}

/** The form with LINE_ROWS_STEP more empty line rows (up to MAX_LINE_ROWS), typed values kept. */
export function withMoreLines(form: OrderForm): OrderForm {
  const typed = form.lines.filter((l) => !isBlankLine(l));
  const rows = Math.min(MAX_LINE_ROWS, Math.max(form.lines.length, typed.length) + LINE_ROWS_STEP);
  return { ...form, lines: [...typed, ...emptyLines(Math.max(0, rows - typed.length))] };
}

const isBlankLine = (l: LineRow) => l.sku.trim() === '' && l.qty.trim() === '' && l.price.trim() === '';
const isBlankAddress = (a: AddressForm) => ADDRESS_PARTS.every((p) => p === 'country' || a[p].trim() === '');
const optional = (value: string) => (value.trim() === '' ? null : value.trim());

/**
 * The POST /v1/salesOrder body the form makes, and which form row each of its lines came from. Values go as
 * typed (trimmed): a quantity that is not a whole number goes as text, so the API's own rule refuses it.
 */
export function orderInput(form: OrderForm, storeId: number, now: Date): { input: CreateOrderInput; rowOfLine: number[]; problems: FormProblem[] } {
  const problems: FormProblem[] = [];
  const address = (a: AddressForm): AddressInput | null => {
    if (isBlankAddress(a)) return null;
    return {
      name: a.name.trim(),
      company: optional(a.company),
      addressLine1: a.line1.trim(),
      addressLine2: optional(a.line2),
      city: a.city.trim(),
      state: optional(a.state),
      postalCode: a.postal.trim(),
      countryCode: optional(a.country.toUpperCase()),
    };
  };
  const shipping = address(form.ship);
  // The contract has no customer phone of its own: a phone travels with the ship-to address (carriers need it).
  if (shipping) shipping.phone = optional(form.customerPhone);
  else if (form.customerPhone.trim() !== '') {
    problems.push({ id: 'f-customer_phone', text: 'A phone number is kept with the ship-to address: fill in the address, or leave the phone empty.' });
  }
  const billing = form.billSame ? (shipping ? { ...shipping } : null) : address(form.bill);
  const rowOfLine: number[] = [];
  const products: LineInput[] = [];
  if (form.lines.length > MAX_LINE_ROWS) {
    problems.push({ id: 'f-lines', text: `This form takes at most ${MAX_LINE_ROWS} lines; for a larger order, import a file of orders on the Reports page.` });
  }
  form.lines.slice(0, MAX_LINE_ROWS).forEach((l, row) => {
    if (isBlankLine(l)) return;
    rowOfLine.push(row);
    const qty = l.qty.trim();
    const price = l.price.trim();
    const line: Record<string, unknown> = { requestedSku: l.sku.trim() };
    // Left out when empty so the API's "required" names it; a whole number as a number, anything else as typed.
    if (qty !== '') line.quantity = /^\d{1,9}$/.test(qty) ? Number(qty) : qty;
    if (price !== '') line.unitPrice = price;
    products.push(line as unknown as LineInput);
  });
  const input: CreateOrderInput = {
    channelOrderId: form.reference.trim() === '' ? generatedReference(form.token) : form.reference.trim(),
    orderTs: now.toISOString(),
    status: form.payment === 'unpaid' ? 'PENDING_PAYMENT' : 'PENDING',
    integrationId: storeId,
    customerName: optional(form.customerName),
    customerEmail: optional(form.customerEmail),
    requestedServiceLevel: optional(form.service),
    customer_notes: optional(form.note),
    shippingAddress: shipping,
    billingAddress: billing,
    products,
  };
  return { input, rowOfLine, problems };
}

/** What a form field is called on the page, for sentences about it. */
const LABELS: Record<string, string> = {
  reference: 'Order reference',
  store: 'Store',
  payment: 'Payment',
  customer_name: 'Customer name',
  customer_email: 'Email',
  customer_phone: 'Phone',
  service: 'Shipping service',
  note: "Customer's note",
  ship_name: 'Ship-to name',
  ship_company: 'Ship-to company',
  ship_line1: 'Ship-to address line 1',
  ship_line2: 'Ship-to address line 2',
  ship_city: 'Ship-to city',
  ship_state: 'Ship-to state or region',
  ship_postal: 'Ship-to postal code',
  ship_country: 'Ship-to country',
  bill_name: 'Bill-to name',
  bill_company: 'Bill-to company',
  bill_line1: 'Bill-to address line 1',
  bill_line2: 'Bill-to address line 2',
  bill_city: 'Bill-to city',
  bill_state: 'Bill-to state or region',
  bill_postal: 'Bill-to postal code',
  bill_country: 'Bill-to country',
};

const ADDRESS_FIELD: Record<string, AddressPart | 'phone' | 'email'> = {
  name: 'name',
  company: 'company',
  addressLine1: 'line1',
  addressLine2: 'line2',
  city: 'city',
  state: 'state',
  postalCode: 'postal',
  countryCode: 'country',
  phone: 'phone',
  email: 'email',
};

/** Where on the form a body field is: the input's name and, for a line, its row. */
interface Spot {
  name: string;
  row?: number;
}

/** A body path (["products", "2", "quantity"]) as the form's input it came from. */
function spotOf(path: string[], form: OrderForm, rowOfLine: number[]): Spot | null {
  const [head, second, third] = path;
  if (head === 'channelOrderId') return { name: 'reference' };
  if (head === 'customerName') return { name: 'customer_name' };
  if (head === 'customerEmail') return { name: 'customer_email' };
  if (head === 'requestedServiceLevel' || head === 'standardServiceLevel') return { name: 'service' };
  if (head === 'customer_notes') return { name: 'note' };
  if (head === 'integrationId') return { name: 'store' };
  if (head === 'status') return { name: 'payment' };
  if (head === 'shippingAddress' || head === 'billingAddress') {
    const part = ADDRESS_FIELD[second ?? ''];
    if (!part) return null;
    if (part === 'phone') return { name: 'customer_phone' };
    if (part === 'email') return { name: 'customer_email' };
    // "Same as ship to" sends the ship-to address twice: its problems belong to the ship-to fields.
    const prefix = head === 'shippingAddress' || form.billSame ? 'ship' : 'bill';
    return { name: `${prefix}_${part}` };
  }
  if (head === 'products') {
    if (second === undefined) return { name: 'lines' };
    const row = rowOfLine[Number(second)];
    if (row === undefined) return { name: 'lines' };
    if (third === 'requestedSku' || third === 'sku') return { name: 'line_sku', row };
    if (third === 'quantity') return { name: 'line_qty', row };
    if (third === 'unitPrice') return { name: 'line_price', row };
    return { name: 'line_sku', row };
  }
  return null;
}

export const inputId = (name: string, row?: number) => (row === undefined ? `f-${name}` : `f-${name}-${row}`);

type Kind = { kind: 'missing' } | { kind: 'too-long'; limit: number } | { kind: 'too-many'; limit: number } | { kind: 'other' };

/** The sentence for a problem with a field: its own words for the fields with a format, else by kind. */
function sentence(spot: Spot, kind: Kind): string {
  const line = spot.row === undefined ? '' : `Line ${spot.row + 1}: `;
  if (spot.name === 'lines') {
    if (kind.kind === 'too-many') return `An order has at most ${kind.limit} lines.`;
    return 'Add at least one line: a SKU and how many.';
  }
  if (spot.name === 'line_qty') {
    return kind.kind === 'missing' ? `${line}enter how many units.` : `${line}the quantity must be a whole number from 1 to 1,000,000.`;
  }
  if (spot.name === 'line_price') return `${line}enter the unit price as a number like 12.50, without a currency sign.`;
  if (spot.name === 'line_sku') {
    if (kind.kind === 'missing') return `${line}enter the SKU, or clear the line.`;
    if (kind.kind === 'too-long') return `${line}a SKU has at most ${kind.limit} characters.`;
    return `${line}the SKU cannot hold tabs, line breaks or other control characters.`;
  }
  if (spot.name.endsWith('_country')) return `${LABELS[spot.name]}: enter a 2-letter country code such as US, GB or DE.`;
  const label = LABELS[spot.name] ?? 'This field';
  if (kind.kind === 'missing') return `Enter the ${label.charAt(0).toLowerCase()}${label.slice(1)}.`;
  if (kind.kind === 'too-long') return `${label} is too long: at most ${kind.limit.toLocaleString('en-US')} characters.`;
  return `${label} cannot be stored as typed: remove tabs, line breaks or other control characters.`;
}

function schemaKind(e: ErrorObject): Kind {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required' || e.keyword === 'minLength' || e.keyword === 'minItems') return { kind: 'missing' };
  if (e.keyword === 'maxLength') return { kind: 'too-long', limit: Number(params.limit) };
  if (e.keyword === 'maxItems') return { kind: 'too-many', limit: Number(params.limit) };
  return { kind: 'other' };
}

function domainKind(v: FieldViolation): Kind {
  return /must not be empty|is required/.test(v.description) ? { kind: 'missing' } : { kind: 'other' };
}

/** Adds a problem unless its input has one already (the first found is the one shown). */
function add(problems: FormProblem[], spot: Spot | null, text: string): void {
  const id = spot ? inputId(spot.name, spot.row) : 'f-general';
  if (!problems.some((p) => p.id === id)) problems.push({ id, text });
}

/** The body schema's problems (as POST /v1/salesOrder's validation reports them) next to the form's inputs. */
export function schemaProblems(errors: ErrorObject[], form: OrderForm, rowOfLine: number[]): FormProblem[] {
  const problems: FormProblem[] = [];
  for (const e of errors) {
    const params = e.params as Record<string, unknown>;
    const path = e.instancePath.split('/').filter(Boolean);
    if (typeof params.missingProperty === 'string') path.push(params.missingProperty);
    const spot = spotOf(path, form, rowOfLine);
    add(problems, spot, spot ? sentence(spot, schemaKind(e)) : `The order could not be created: ${e.message ?? 'a value is not accepted'}.`);
  }
  return problems;
}

/** The domain's field problems (validateCreateInput's) next to the form's inputs. */
export function domainProblems(violations: FieldViolation[], form: OrderForm, rowOfLine: number[]): FormProblem[] {
  const problems: FormProblem[] = [];
  for (const v of violations) {
    const path = v.field.replace(/\[(\d+)\]/g, '.$1').split('.');
    const spot = spotOf(path, form, rowOfLine);
    add(problems, spot, spot ? sentence(spot, domainKind(v)) : `The order could not be created: ${v.description}.`);
  }
  return problems;
}
