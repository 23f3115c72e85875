/**
 * The ingestion listing (document 2.19) as a partner pushes it, checked and normalised into the form kept
 * in ingestion_listings.body: camelCase names only, price as a moneyValue (decimal string, never a float).
 * Pure functions: nothing here touches the database.
 */
import { invalidField } from '../errors.js';
import { longerThan, MAX_SKU_LENGTH } from '../text-limits.js';
import { MAX_VARIANTS_PER_LISTING } from './listing-input.js';
import type { AttributeInput } from './model.js';
import { checkAttributeInputs } from './attributes.js';

/** The body as received: camelCase or snake_case names (resolutions §0), int64 as string or number. */
export interface IngestionListingBody {
  id?: string;
  productTypeId?: string;
  product_type_id?: string;
  pivotAttributes?: string[];
  pivot_attributes?: string[];
  attributes?: unknown[];
  variants?: IngestionVariantBody[];
}

export interface IngestionVariantBody {
  sku?: string;
  price?: IngestionPriceBody | null;
  attributes?: unknown[];
}

/** google.type.Money. */
export interface IngestionPriceBody {
  currencyCode?: string;
  currency_code?: string;
  units?: string | number;
  nanos?: string | number;
}

/** What ingestion_listings.body holds. */
export interface IngestionListing {
  id: string;
  productTypeId: string;
  pivotAttributes: string[];
  attributes: AttributeInput[];
  variants: IngestionVariant[];
}

export interface IngestionVariant {
  sku: string;
  /** The price as a moneyValue; null when the partner sent none. */
  price: { amount: string; currencyCode: string } | null;
  attributes: AttributeInput[];
}

/** As for listing and variant SKUs the seller creates (listing-input.ts). */

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const NANOS_LIMIT = 999_999_999;

/**
 * google.type.Money {units, nanos} → exact decimal string: "12.5" for units 12, nanos 500000000; "-0.25" for
 * units 0, nanos -250000000; "7" when nanos is 0. units is an int64 (string or safe integer); nanos lies in
 * −999,999,999..999,999,999 and has the sign of units when units is not zero. Throws naming `path`.
 */
export function moneyAmountFromUnitsNanos(units: string | number | undefined, nanos: string | number | undefined, path = 'price'): string {
  const u = parseInteger(units ?? 0, `${path}.units`, INT64_MIN, INT64_MAX);
  const n = parseInteger(nanos ?? 0, `${path}.nanos`, BigInt(-NANOS_LIMIT), BigInt(NANOS_LIMIT));
  if ((u > 0n && n < 0n) || (u < 0n && n > 0n)) {
    throw invalidField(`${path}.nanos`, 'must have the same sign as units (or units must be 0)');
  }
  const negative = u < 0n || n < 0n;
  const whole = (u < 0n ? -u : u).toString();
  const fraction = (n < 0n ? -n : n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

function parseInteger(value: string | number, field: string, min: bigint, max: bigint): bigint {
  let big: bigint;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw invalidField(field, 'must be an integer');
    big = BigInt(value);
  } else {
    if (!/^-?\d+$/.test(value)) throw invalidField(field, 'must be an integer');
    big = BigInt(value);
  }
  if (big < min || big > max) throw invalidField(field, `must be between ${min} and ${max}`);
  return big;
}

function normaliseAttributes(raw: unknown, path: string): AttributeInput[] {
  // Snake_case value kinds and money amounts sent as JSON numbers are read there too (resolutions §0, §4).
  return checkAttributeInputs(path, raw);
}

function normalisePrice(raw: IngestionPriceBody | null | undefined, path: string): IngestionVariant['price'] {
  if (raw === undefined || raw === null) return null;
  const code = raw.currencyCode ?? raw.currency_code ?? '';
  if (!/^[A-Z]{3}$/.test(code)) throw invalidField(`${path}.currencyCode`, 'must be a three-letter ISO 4217 code such as USD');
  return { amount: moneyAmountFromUnitsNanos(raw.units, raw.nanos, path), currencyCode: code };
}

/**
 * Checks one ingestion listing and returns its normalised form, or throws INVALID_ARGUMENT naming the
 * first bad field: a missing id, no variants, an empty or repeated SKU, a bad price or attribute value.
 */
export function normaliseIngestionListing(body: IngestionListingBody): IngestionListing {
  const id = body.id ?? '';
  if (id.trim() === '') throw invalidField('id', 'is required (the partner\'s own listing id)');
  if (longerThan(id, MAX_SKU_LENGTH)) throw invalidField('id', `must be at most ${MAX_SKU_LENGTH} characters (it becomes the listing SKU)`);
  const variantsIn = body.variants ?? [];
  if (variantsIn.length === 0) throw invalidField('variants', 'must have at least one variant');
  if (variantsIn.length > MAX_VARIANTS_PER_LISTING) throw invalidField('variants', `must list at most ${MAX_VARIANTS_PER_LISTING} variants`);
  const seen = new Set<string>();
  const variants = variantsIn.map((v, i): IngestionVariant => {
    const path = `variants[${i}]`;
    const sku = v.sku ?? '';
    if (sku.trim() === '') throw invalidField(`${path}.sku`, 'is required');
    if (longerThan(sku, MAX_SKU_LENGTH)) throw invalidField(`${path}.sku`, `must be at most ${MAX_SKU_LENGTH} characters`);
    if (seen.has(sku)) throw invalidField(`${path}.sku`, `"${sku}" appears twice in this listing`);
    seen.add(sku);
    return { sku, price: normalisePrice(v.price, `${path}.price`), attributes: normaliseAttributes(v.attributes, `${path}.attributes`) };
  });
  return {
    id,
    productTypeId: body.productTypeId ?? body.product_type_id ?? '',
    pivotAttributes: body.pivotAttributes ?? body.pivot_attributes ?? [],
    attributes: normaliseAttributes(body.attributes, 'attributes'),
    variants,
  };
}
