import { parseTimestamp } from '../../lib/time.js';
import { AppError, invalidField, invalidFields, type FieldViolation } from '../errors.js';
import { decimalInput } from '../decimal-input.js';
import { ACCOUNTING_FIELDS, ADDRESS_OPTIONAL_FIELDS, type Address, type StandardServiceLevel } from './model.js';

/**
 * The create-order body (resolutions §3) and the checks that need no database, run before anything is
 * written, so a bad request changes nothing. Every problem is found, not only the first, so one answer
 * (or the console's order form) names them all.
 */

type Decimal = number | string | null;

export interface AddressInput {
  name: string;
  company?: string | null;
  addressLine1: string;
  addressLine2?: string | null;
  city: string;
  state?: string | null;
  postalCode: string;
  phone?: string | null;
  email?: string | null;
  countryCode?: string | null;
  type?: string | null;
}

export interface LineInput {
  requestedSku?: string;
  sku?: string;
  quantity: number;
  channelLineItemId?: string | null;
  requestedTitle?: string | null;
  title?: string | null;
  unitPrice?: Decimal;
  cost?: Decimal;
  totalWeight?: Decimal;
  packageDimensions?: unknown;
  hazmat?: { flagged: boolean } | null;
  giftWrapMessage?: string | null;
  giftWrapLevel?: string | null;
  earliestShipBy?: string | null;
  latestShipBy?: string | null;
  earliestDeliverBy?: string | null;
  latestDeliverBy?: string | null;
  requestedServiceLevel?: string | null;
}

export interface CreateOrderInput {
  channelOrderId: string;
  orderTs: string;
  status?: 'PENDING' | 'PENDING_PAYMENT';
  channel?: string;
  channelLabel?: string | null;
  /** A custom store of the seller's (document 2.6); seller tokens only. */
  integrationId?: number | null;
  channelOrderReferenceNumber?: string | null;
  customer_notes?: string | null;
  marketplaceId?: string | null;
  customerName?: string | null;
  customerEmail?: string | null;
  requestedServiceLevel?: string | null;
  standardServiceLevel?: StandardServiceLevel | null;
  accounting?: Partial<Record<string, Decimal>> | null;
  shippingAddress?: AddressInput | null;
  billingAddress?: AddressInput | null;
  fba?: boolean;
  channelWillFulfill?: boolean;
  prime?: boolean;
  businessOrder?: boolean;
  products: LineInput[];
}

function optionalTime(field: string, value: string | null | undefined): string | null {
  if (value === undefined || value === null || value === '') return null;
  const parsed = parseTimestamp(value);
  if (!parsed) throw invalidField(field, `"${value}" is not an RFC 3339 timestamp with a time zone (e.g. 2026-11-21T22:13:08Z)`);
  return parsed.toISOString();
}

function requiredText(field: string, value: string): string {
  if (value.trim() === '') throw invalidField(field, 'must not be empty');
  return value;
}

/** Addresses: countryCode optional (default US) but exactly 2 characters when given (document 2.10). */
function addressValue(field: string, input: AddressInput | null | undefined, problems: FieldViolation[]): string | null {
  if (input === undefined || input === null) return null;
  const before = problems.length;
  const code = input.countryCode ?? null;
  if (code !== null && code.length !== 2) {
    problems.push({ field: `${field}.countryCode`, description: `must be exactly 2 characters (e.g. US), got "${code}"` });
  }
  const required = (name: 'name' | 'addressLine1' | 'city' | 'postalCode') => noting(problems, () => requiredText(`${field}.${name}`, input[name])) ?? '';
  const address: Address = {
    name: required('name'),
    company: null,
    addressLine1: required('addressLine1'),
    addressLine2: null,
    city: required('city'),
    state: null,
    postalCode: required('postalCode'),
    phone: null,
    email: null,
    countryCode: code ?? 'US',
    type: null,
  };
  for (const key of ADDRESS_OPTIONAL_FIELDS) address[key] = input[key] ?? null;
  return problems.length > before ? null : JSON.stringify(address);
}

function accountingValue(input: CreateOrderInput['accounting']): string | null {
  if (input === undefined || input === null) return null;
  const stored: Record<string, string> = {};
  for (const f of ACCOUNTING_FIELDS) {
    const value = decimalInput(`accounting.${f}`, input[f]);
    if (value !== null) stored[f] = value;
  }
  return JSON.stringify(stored);
}

/**
 * Runs one check; a field problem it throws is noted (and null returned) so the other checks still run.
 * Anything that is not a field problem is thrown on.
 */
function noting<T>(problems: FieldViolation[], check: () => T): T | null {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'INVALID_ARGUMENT' || error.violations.length === 0) throw error;
    problems.push(...error.violations);
    return null;
  }
}

/** Everything checkable without the database, done before the transaction opens; every problem at once. */
export function validateCreateInput(input: CreateOrderInput) {
  const problems: FieldViolation[] = [];
  const orderTs = noting(problems, () => {
    const parsed = optionalTime('orderTs', input.orderTs);
    if (parsed === null) throw invalidField('orderTs', 'is required');
    return parsed;
  });
  noting(problems, () => requiredText('channelOrderId', input.channelOrderId));
  const lines = input.products.map((p, i) => {
    const at = `products[${i}]`;
    const requested = p.requestedSku ?? p.sku;
    const requestedSku = noting(problems, () => {
      if (requested === undefined) throw invalidField(`${at}.requestedSku`, 'is required (or give sku)');
      return requiredText(`${at}.requestedSku`, requested);
    });
    return {
      requestedSku: requestedSku ?? '',
      quantity: p.quantity,
      channel_line_item_id: p.channelLineItemId ?? null,
      requested_title: p.requestedTitle ?? null,
      title: p.title === undefined || p.title === null || p.title === '' ? null : p.title,
      unit_price: noting(problems, () => decimalInput(`${at}.unitPrice`, p.unitPrice)),
      cost: noting(problems, () => decimalInput(`${at}.cost`, p.cost)),
      total_weight: noting(problems, () => decimalInput(`${at}.totalWeight`, p.totalWeight)),
      package_dimensions: p.packageDimensions === undefined || p.packageDimensions === null ? null : JSON.stringify(p.packageDimensions),
      hazmat: p.hazmat === undefined || p.hazmat === null ? null : JSON.stringify({ flagged: p.hazmat.flagged }),
      gift_wrap_message: p.giftWrapMessage ?? null,
      gift_wrap_level: p.giftWrapLevel ?? null,
      earliest_ship_by: noting(problems, () => optionalTime(`${at}.earliestShipBy`, p.earliestShipBy)),
      latest_ship_by: noting(problems, () => optionalTime(`${at}.latestShipBy`, p.latestShipBy)),
      earliest_deliver_by: noting(problems, () => optionalTime(`${at}.earliestDeliverBy`, p.earliestDeliverBy)),
      latest_deliver_by: noting(problems, () => optionalTime(`${at}.latestDeliverBy`, p.latestDeliverBy)),
      requested_service_level: p.requestedServiceLevel ?? null,
    };
  });
  const accounting = noting(problems, () => accountingValue(input.accounting));
  const shippingAddress = noting(problems, () => addressValue('shippingAddress', input.shippingAddress, problems));
  const billingAddress = noting(problems, () => addressValue('billingAddress', input.billingAddress, problems));
  // One problem reads exactly as before (invalidField's message is "field: description", like one listed).
  if (problems.length > 0 || orderTs === null) throw invalidFields(problems);
  return { orderTs, lines, accounting, shippingAddress, billingAddress };
}
