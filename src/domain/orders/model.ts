/** Sales order vocabulary (document 2.10 and 3.3, resolutions §3 and §6). */

export const ORDER_STATUSES = [
  'PENDING_PAYMENT',
  'PENDING',
  'PARTIALLY_SHIPPED',
  'SHIPPED',
  'CANCELLED',
  'RETURNED',
  'REFUNDED',
  'RETURN_REQUESTED',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * Spellings public guides send in the status filter (resolutions §0): both mean CANCELLED, so they match
 * nothing a CANCELLED filter would not.
 */
export const ORDER_STATUS_ALIASES: Readonly<Record<string, OrderStatus>> = {
  CANCELED: 'CANCELLED',
  PARTIALLY_CANCELLED: 'CANCELLED',
};

/** Statuses whose lines hold stock (resolutions §3: PENDING and PENDING_PAYMENT reserve). */
export const RESERVING_STATUSES: readonly OrderStatus[] = ['PENDING_PAYMENT', 'PENDING'];

/** What confirmStatus accepts: the order statuses plus the document's own misspelling (3.3). */
export const CONFIRMABLE_STATUSES = [...ORDER_STATUSES, 'PARTIALLY_CACNCELLED'] as const;

export const STANDARD_SERVICE_LEVELS = [
  'Standard',
  'Economy',
  'Three Day',
  'Second Day',
  'Next Day',
  'Free Shipping',
  'International Standard',
  'International Economy',
  'International Priority',
  'Freight Standard',
  'Pick Up',
  'Unknown',
] as const;
export type StandardServiceLevel = (typeof STANDARD_SERVICE_LEVELS)[number];

/**
 * The standardized level: the one the channel sent, else the requested level when it names a standard
 * level (case-insensitively), else Unknown ("when none can be determined", document 2.10).
 */
export function standardServiceLevelFor(explicit: StandardServiceLevel | null, requested: string | null): StandardServiceLevel {
  if (explicit) return explicit;
  const wanted = requested?.trim().toLowerCase();
  return STANDARD_SERVICE_LEVELS.find((l) => l.toLowerCase() === wanted) ?? 'Unknown';
}

export const ACCOUNTING_FIELDS = [
  'payment',
  'channelTax',
  'resellerCommission',
  'shippingCost',
  'itemCost',
  'totalCost',
  'revenue',
  'profit',
  'margin',
  'itemPrice',
  'shippingPrice',
  'refund',
  'totalDiscount',
] as const;
export type AccountingField = (typeof ACCOUNTING_FIELDS)[number];

export interface Address {
  name: string;
  company: string | null;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string | null;
  postalCode: string;
  phone: string | null;
  email: string | null;
  countryCode: string;
  type: string | null;
}

export const ADDRESS_OPTIONAL_FIELDS = ['company', 'addressLine2', 'state', 'phone', 'email', 'type'] as const;
