import { parseTimestamp } from '../../lib/time.js';
import { invalidField } from '../errors.js';
import { decimalInput } from './decimal.js';
import { ACCOUNTING_FIELDS, ADDRESS_OPTIONAL_FIELDS, type Address, type StandardServiceLevel } from './model.js';

/**
 * The create-order body (resolutions §3) and the checks that need no database, run before anything is
 * written, so a bad request changes nothing.
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
function addressValue(field: string, input: AddressInput | null | undefined): string | null {
  if (input === undefined || input === null) return null;
  const code = input.countryCode ?? null;
  if (code !== null && code.length !== 2) {
    throw invalidField(`${field}.countryCode`, `must be exactly 2 characters (e.g. US), got "${code}"`);
  }
  const address: Address = {
    name: requiredText(`${field}.name`, input.name),
    company: null,
    addressLine1: requiredText(`${field}.addressLine1`, input.addressLine1),
    addressLine2: null,
    city: requiredText(`${field}.city`, input.city),
    state: null,
    postalCode: requiredText(`${field}.postalCode`, input.postalCode),
    phone: null,
    email: null,
    countryCode: code ?? 'US',
    type: null,
  };
  for (const key of ADDRESS_OPTIONAL_FIELDS) address[key] = input[key] ?? null;
  return JSON.stringify(address);
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

/** Everything checkable without the database, done before the transaction opens. */
export function validateCreateInput(input: CreateOrderInput) {
  const orderTs = optionalTime('orderTs', input.orderTs);
  if (orderTs === null) throw invalidField('orderTs', 'is required');
  requiredText('channelOrderId', input.channelOrderId);
  const lines = input.products.map((p, i) => {
    const at = `products[${i}]`;
    const requested = p.requestedSku ?? p.sku;
    if (requested === undefined) throw invalidField(`${at}.requestedSku`, 'is required (or give sku)');
    return {
      requestedSku: requiredText(`${at}.requestedSku`, requested),
      quantity: p.quantity,
      channel_line_item_id: p.channelLineItemId ?? null,
      requested_title: p.requestedTitle ?? null,
      title: p.title === undefined || p.title === null || p.title === '' ? null : p.title,
      unit_price: decimalInput(`${at}.unitPrice`, p.unitPrice),
      cost: decimalInput(`${at}.cost`, p.cost),
      total_weight: decimalInput(`${at}.totalWeight`, p.totalWeight),
      package_dimensions: p.packageDimensions === undefined || p.packageDimensions === null ? null : JSON.stringify(p.packageDimensions),
      hazmat: p.hazmat === undefined || p.hazmat === null ? null : JSON.stringify({ flagged: p.hazmat.flagged }),
      gift_wrap_message: p.giftWrapMessage ?? null,
      gift_wrap_level: p.giftWrapLevel ?? null,
      earliest_ship_by: optionalTime(`${at}.earliestShipBy`, p.earliestShipBy),
      latest_ship_by: optionalTime(`${at}.latestShipBy`, p.latestShipBy),
      earliest_deliver_by: optionalTime(`${at}.earliestDeliverBy`, p.earliestDeliverBy),
      latest_deliver_by: optionalTime(`${at}.latestDeliverBy`, p.latestDeliverBy),
      requested_service_level: p.requestedServiceLevel ?? null,
    };
  });
  return {
    orderTs,
    lines,
    accounting: accountingValue(input.accounting),
    shippingAddress: addressValue('shippingAddress', input.shippingAddress),
    billingAddress: addressValue('billingAddress', input.billingAddress),
  };
}

