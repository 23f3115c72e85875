import { decimalOutput } from '../../lib/decimal.js';
import type { AttributeValue, AttributeValueKinds, ListingView, VariantView } from './model.js';
import { PRICE_ATTRIBUTE_ID } from './ingestion-apply.js';

/**
 * The v1 listing shape (document 2.1) rendered from the v2 view of the same listing: v1 has named fields
 * where v2 has attribute values, so this file is the one place that says which attribute id feeds which
 * v1 field. Pure functions; the caller loads the views (and the catalog identifiers used as fallback).
 */

/** The six cpsia_warnings keys, spelled exactly as document 2.1 gives them (spaces included). */
export const CPSIA_WARNING_KEYS = [
  'choking hazard balloon',
  'choking hazard contains a marble',
  'choking hazard contains a small ball',
  'choking hazard is a marble',
  'choking hazard is a small ball',
  'choking hazard small parts',
] as const;
export type CpsiaWarningKey = (typeof CPSIA_WARNING_KEYS)[number];

/**
 * Attribute id → v1 field. Listing fields read the listing's productData; when the listing has no such
 * attribute, the first variant (by position) that has it in its productData is used, because channels often
 * carry titles and images per variant. Variant text fields read the variant's productData first, then the
 * listing's. Every other variant productData attribute is rendered into listing_data.
 */
export const V1_ATTRIBUTE_MAP = {
  /** listing productData (fallback: first variant having it) → text rendering */
  listingText: { title: 'title', description: 'description', tags: 'tags' },
  /** listing productData: a url (textValue), or a multiObject item with url/hash properties */
  listingImage: 'primary_image',
  /** listing productData: multiText naming present warnings (any of CPSIA_WARNING_KEYS, case-insensitive) */
  cpsiaWarnings: 'cpsia_warnings',
  /** listing productData: required = true/yes/1 (text) or non-zero (numeric); type = text; chemicals = multiText */
  prop65: { required: 'prop65_required', type: 'prop65_type', chemicals: 'prop65_chemicals' },
  /** variant productData, else listing productData → text rendering ("" when neither has it) */
  variantText: {
    brand: 'brand',
    manufacturer: 'manufacturer',
    model_number: 'model_number',
    condition: 'condition',
    condition_description: 'condition_description',
  },
  /** variant productData: primary_image (else the first of images, else the listing's image); images = multiText urls */
  variantImages: { primary_image: 'primary_image', images: 'images' },
  /**
   * variant pricing group, first id present: moneyValue amount (or numericValue) as a number; null when the
   * variant has none. The service stores a variant's price as the pricing attribute `price` (ingestion, the
   * seller's edit, the v2 views), so that is the selling price unless a v1-specific id is set.
   */
  pricing: {
    current_selling_price: ['current_selling_price', PRICE_ATTRIBUTE_ID],
    msrp: ['msrp'],
    map: ['map'],
    pricing: ['pricing', PRICE_ATTRIBUTE_ID],
  },
  /** variant identifiers group, first present in this order; type is the id upper-cased. Else the catalog's. */
  identifiers: ['upc', 'ean', 'isbn', 'gtin'],
} as const;

export interface ImageV1 {
  url: string;
  hash: string;
}

export interface VariantV1 {
  sku: string;
  available_inventory: number;
  pricing: { current_selling_price: number | null; msrp: number | null; map: number | null; pricing: number | null };
  primary_image: ImageV1;
  images: ImageV1[];
  standard_identifier: string;
  standard_identifier_type: string;
  brand: string;
  manufacturer: string;
  model_number: string;
  condition: string;
  condition_description: string;
  listing_data: { attribute: string; value: string }[];
}

export interface ListingV1 {
  id: string;
  sku: string;
  title: string;
  description: string;
  tags: string;
  created_at: string;
  updated_at: string;
  pivot_attributes: string[];
  primary_image: ImageV1;
  category: string;
  cpsia_warnings: Record<CpsiaWarningKey, boolean>;
  prop65: { required: boolean; type: string; chemicals: string[] };
  variants: VariantV1[];
}

/** The catalog product's own identifiers, used when a variant's identifiers group names none. */
export interface CatalogIdentifiers {
  standardProductId: string | null;
  standardProductIdType: string | null;
}

const NO_IMAGE: ImageV1 = { url: '', hash: '' };

/** One line of text for any value kind: what v1 text fields and listing_data values show. */
export function attributeText(value: AttributeValueKinds): string {
  if (value.textValue !== undefined) return value.textValue;
  if (value.numericValue !== undefined) return String(value.numericValue);
  if (value.numericWithUnitsValue !== undefined) return `${value.numericWithUnitsValue.numeric} ${value.numericWithUnitsValue.units}`.trim();
  if (value.multiTextValue !== undefined) return value.multiTextValue.values.join(', ');
  if (value.moneyValue !== undefined) return `${value.moneyValue.amount} ${value.moneyValue.currencyCode}`.trim();
  if (value.multiObjectValue !== undefined) return JSON.stringify(value.multiObjectValue.items);
  return '';
}

/** The values of a list-like attribute: multiText values, else the one text rendering (if not empty). */
function attributeList(value: AttributeValueKinds): string[] {
  if (value.multiTextValue !== undefined) return value.multiTextValue.values;
  const text = attributeText(value);
  return text === '' ? [] : [text];
}

function attributeBoolean(value: AttributeValueKinds): boolean {
  if (value.numericValue !== undefined) return value.numericValue !== 0;
  const first = attributeList(value)[0]?.trim().toLowerCase() ?? '';
  return first === 'true' || first === 'yes' || first === '1' || first === 'y';
}

/** v1 prices are numbers: the money amount (a decimal string) or a plain numeric value; else null. */
function attributeNumber(value: AttributeValueKinds): number | null {
  const n = value.moneyValue !== undefined ? decimalOutput(value.moneyValue.amount) : value.numericValue;
  return n !== undefined && Number.isFinite(n) ? n : null;
}

/** The image URLs a value holds: multiObject items' url properties, else the text values (one or many). */
export function attributeImages(value: AttributeValueKinds): ImageV1[] {
  if (value.multiObjectValue !== undefined) {
    return value.multiObjectValue.items
      .map((item) => ({ url: item.properties.url?.textValue ?? '', hash: item.properties.hash?.textValue ?? '' }))
      .filter((image) => image.url !== '');
  }
  return attributeList(value).map((url) => ({ url, hash: '' }));
}

const find = (attributes: AttributeValue[], id: string): AttributeValue | undefined => attributes.find((a) => a.id === id);

const CONSUMED_VARIANT_IDS: ReadonlySet<string> = new Set([
  ...Object.values(V1_ATTRIBUTE_MAP.variantText),
  ...Object.values(V1_ATTRIBUTE_MAP.variantImages),
]);

function renderVariant(variant: VariantView, listing: ListingView, catalog: CatalogIdentifiers | undefined): VariantV1 {
  const own = variant.productData.attributes;
  const text = (id: string) => {
    const value = find(own, id) ?? find(listing.productData.attributes, id);
    return value ? attributeText(value) : '';
  };
  const price = (ids: readonly string[]) => {
    for (const id of ids) {
      const value = find(variant.pricing.attributes, id);
      const n = value ? attributeNumber(value) : null;
      if (n !== null) return n;
    }
    return null;
  };
  const imagesAttr = find(own, V1_ATTRIBUTE_MAP.variantImages.images);
  const images = imagesAttr ? attributeImages(imagesAttr) : [];
  const primaryAttr = find(own, V1_ATTRIBUTE_MAP.variantImages.primary_image);
  const listingImage = find(listing.productData.attributes, V1_ATTRIBUTE_MAP.listingImage);
  const primary = (primaryAttr && attributeImages(primaryAttr)[0]) ?? images[0] ?? (listingImage && attributeImages(listingImage)[0]) ?? NO_IMAGE;

  let identifier = '';
  let identifierType = '';
  for (const id of V1_ATTRIBUTE_MAP.identifiers) {
    const value = find(variant.identifiers.attributes, id);
    if (value && attributeText(value) !== '') {
      identifier = attributeText(value);
      identifierType = id.toUpperCase();
      break;
    }
  }
  if (identifier === '' && catalog?.standardProductId) {
    identifier = catalog.standardProductId;
    identifierType = catalog.standardProductIdType ?? '';
  }

  const t = V1_ATTRIBUTE_MAP.variantText;
  const p = V1_ATTRIBUTE_MAP.pricing;
  return {
    sku: variant.sku,
    available_inventory: Number(variant.inventory.totalQuantity),
    pricing: {
      current_selling_price: price(p.current_selling_price),
      msrp: price(p.msrp),
      map: price(p.map),
      pricing: price(p.pricing),
    },
    primary_image: { ...primary },
    images,
    standard_identifier: identifier,
    standard_identifier_type: identifierType,
    brand: text(t.brand),
    manufacturer: text(t.manufacturer),
    model_number: text(t.model_number),
    condition: text(t.condition),
    condition_description: text(t.condition_description),
    listing_data: own.filter((a) => !CONSUMED_VARIANT_IDS.has(a.id)).map((a) => ({ attribute: a.id, value: attributeText(a) })),
  };
}

/**
 * The 2.1 listing for one v2 listing view. `catalog` maps a variant SKU to its catalog product's
 * identifiers (the standard_identifier fallback); a missing entry means none.
 */
export function renderListingV1(listing: ListingView, catalog: ReadonlyMap<string, CatalogIdentifiers> = new Map()): ListingV1 {
  const attrs = listing.productData.attributes;
  // The listing's value, else the first variant (by position) that has one.
  const listingValue = (id: string): AttributeValue | undefined =>
    find(attrs, id) ?? listing.variants.map((v) => find(v.productData.attributes, id)).find((a) => a !== undefined);
  const text = (id: string) => {
    const value = listingValue(id);
    return value ? attributeText(value) : '';
  };

  const image = listingValue(V1_ATTRIBUTE_MAP.listingImage);
  const warnings = find(attrs, V1_ATTRIBUTE_MAP.cpsiaWarnings);
  const present = new Set((warnings ? attributeList(warnings) : []).map((w) => w.trim().toLowerCase()));
  const cpsia = Object.fromEntries(CPSIA_WARNING_KEYS.map((key) => [key, present.has(key)])) as Record<CpsiaWarningKey, boolean>;

  const prop65Required = find(attrs, V1_ATTRIBUTE_MAP.prop65.required);
  const prop65Type = find(attrs, V1_ATTRIBUTE_MAP.prop65.type);
  const prop65Chemicals = find(attrs, V1_ATTRIBUTE_MAP.prop65.chemicals);

  return {
    id: listing.id,
    sku: listing.sku,
    title: text(V1_ATTRIBUTE_MAP.listingText.title),
    description: text(V1_ATTRIBUTE_MAP.listingText.description),
    tags: text(V1_ATTRIBUTE_MAP.listingText.tags),
    created_at: listing.createdAt,
    updated_at: listing.updatedAt,
    pivot_attributes: [...listing.productData.pivotAttributes],
    primary_image: (image && attributeImages(image)[0]) ?? { ...NO_IMAGE },
    category: listing.productData.categoryId,
    cpsia_warnings: cpsia,
    prop65: {
      required: prop65Required ? attributeBoolean(prop65Required) : false,
      type: prop65Type ? attributeText(prop65Type) : '',
      chemicals: prop65Chemicals ? attributeList(prop65Chemicals) : [],
    },
    variants: listing.variants.map((v) => renderVariant(v, listing, catalog.get(v.sku))),
  };
}
