import { parseTimestamp } from '../../lib/time.js';
import { invalidField } from '../errors.js';
import { checkAttributeInputs } from './attribute-input.js';
import type { ListingInput, ListingProductDataInput, SaleInput, VariantInput } from './model.js';
import { checkSettings } from './storefront-settings.js';

/**
 * Reads listing bodies of the seller's admin routes (create and edit) into the domain shapes, with a
 * message naming the field for every problem. The TypeBox schemas check the outer shape; the nested
 * attribute values and the cross-field rules are checked here.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const MAX_VARIANTS_PER_LISTING = 1000;

function optionalText(path: string, v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalidField(path, 'must be a string');
  return v;
}

function optionalBool(path: string, v: unknown): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw invalidField(path, 'must be true or false');
  return v;
}

function optionalStrings(path: string, v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw invalidField(path, 'must be an array of strings');
  return v as string[];
}

function requiredSku(path: string, v: unknown): string {
  if (typeof v !== 'string' || v.trim() === '') throw invalidField(path, 'must be a non-empty string');
  if (v.length > 255) throw invalidField(path, 'must be at most 255 characters');
  return v;
}

function timestampOrNull(path: string, v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  const d = typeof v === 'string' ? parseTimestamp(v) : null;
  if (!d) throw invalidField(path, 'must be an RFC 3339 timestamp with a time zone');
  return d.toISOString();
}

function finiteNumber(path: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw invalidField(path, 'must be a number ≥ 0');
  return v;
}

export function parseSales(path: string, v: unknown): SaleInput[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw invalidField(path, 'must be an array');
  return v.map((s, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(s)) throw invalidField(at, 'must be an object');
    const sale: SaleInput = {
      strikeThroughPrice: finiteNumber(`${at}.strikeThroughPrice`, s['strikeThroughPrice'] ?? s['strike_through_price'] ?? 0),
      salePrice: finiteNumber(`${at}.salePrice`, s['salePrice'] ?? s['sale_price']),
      startAt: timestampOrNull(`${at}.startAt`, s['startAt'] ?? s['start_at']),
      endAt: timestampOrNull(`${at}.endAt`, s['endAt'] ?? s['end_at']),
    };
    if (sale.startAt && sale.endAt && sale.endAt <= sale.startAt) throw invalidField(`${at}.endAt`, 'must be after startAt');
    return sale;
  });
}

function attributesOf(path: string, group: unknown): { attributes?: ReturnType<typeof checkAttributeInputs> } {
  if (group === undefined || group === null) return {};
  if (!isObject(group)) throw invalidField(path, 'must be an object');
  return group['attributes'] === undefined ? {} : { attributes: checkAttributeInputs(`${path}.attributes`, group['attributes']) };
}

export function parseVariantInput(path: string, v: unknown): VariantInput {
  if (!isObject(v)) throw invalidField(path, 'must be an object');
  const out: VariantInput = { sku: requiredSku(`${path}.sku`, v['sku']) };
  const channelId = optionalText(`${path}.channelId`, v['channelId'] ?? v['channel_id']);
  if (channelId !== undefined) out.channelId = channelId;
  if (v['settings'] !== undefined && v['settings'] !== null) out.settings = checkSettings(`${path}.settings`, v['settings']);
  const productData = v['productData'] ?? v['product_data'];
  if (productData !== undefined && productData !== null) {
    const enabled = optionalBool(`${path}.productData.enabled`, isObject(productData) ? productData['enabled'] : undefined);
    out.productData = { ...attributesOf(`${path}.productData`, productData), ...(enabled !== undefined ? { enabled } : {}) };
  }
  if (v['identifiers'] !== undefined) out.identifiers = attributesOf(`${path}.identifiers`, v['identifiers']);
  if (v['logistics'] !== undefined) out.logistics = attributesOf(`${path}.logistics`, v['logistics']);
  const pricing = v['pricing'];
  if (pricing !== undefined && pricing !== null) {
    const sales = parseSales(`${path}.pricing.sales`, isObject(pricing) ? pricing['sales'] : undefined);
    out.pricing = { ...attributesOf(`${path}.pricing`, pricing), ...(sales ? { sales } : {}) };
  }
  const inventory = v['inventory'];
  if (inventory !== undefined && inventory !== null) {
    if (!isObject(inventory)) throw invalidField(`${path}.inventory`, 'must be an object');
    const enabled = optionalBool(`${path}.inventory.enabled`, inventory['enabled']);
    out.inventory = enabled === undefined ? {} : { enabled };
  }
  return out;
}

export function parseProductDataInput(path: string, p: unknown): ListingProductDataInput | undefined {
  if (p === undefined || p === null) return undefined;
  if (!isObject(p)) throw invalidField(path, 'must be an object');
  const out: ListingProductDataInput = { ...attributesOf(path, p) };
  const enabled = optionalBool(`${path}.enabled`, p['enabled']);
  if (enabled !== undefined) out.enabled = enabled;
  const categoryId = optionalText(`${path}.categoryId`, p['categoryId'] ?? p['category_id']);
  if (categoryId !== undefined) out.categoryId = categoryId;
  const productTypeId = optionalText(`${path}.productTypeId`, p['productTypeId'] ?? p['product_type_id']);
  if (productTypeId !== undefined) out.productTypeId = productTypeId;
  const pivots = optionalStrings(`${path}.pivotAttributes`, p['pivotAttributes'] ?? p['pivot_attributes']);
  if (pivots !== undefined) out.pivotAttributes = pivots;
  const swatch = optionalStrings(`${path}.swatchImageAttributeId`, p['swatchImageAttributeId'] ?? p['swatch_image_attribute_id']);
  if (swatch !== undefined) out.swatchImageAttributeId = swatch;
  const standalone = optionalBool(`${path}.standaloneVariants`, p['standaloneVariants'] ?? p['standalone_variants']);
  if (standalone !== undefined) out.standaloneVariants = standalone;
  const baseSku = optionalText(`${path}.baseListingSku`, p['baseListingSku'] ?? p['base_listing_sku']);
  if (baseSku !== undefined) {
    if (baseSku.length > 255) throw invalidField(`${path}.baseListingSku`, 'must be at most 255 characters');
    out.baseListingSku = baseSku;
  }
  const retire = optionalBool(`${path}.retireBaseParent`, p['retireBaseParent'] ?? p['retire_base_parent']);
  if (retire !== undefined) out.retireBaseParent = retire;
  return out;
}

function uniqueSkus(path: string, variants: VariantInput[]): void {
  const seen = new Set<string>();
  variants.forEach((v, i) => {
    if (seen.has(v.sku)) throw invalidField(`${path}[${i}].sku`, `SKU "${v.sku}" appears twice in this listing`);
    seen.add(v.sku);
  });
}

/** A new listing: sku, optional productData, 1..1000 variants with distinct SKUs. */
export function parseListingInput(body: unknown): ListingInput {
  if (!isObject(body)) throw invalidField('body', 'must be an object');
  const variantsRaw = body['variants'];
  if (!Array.isArray(variantsRaw) || variantsRaw.length === 0) throw invalidField('variants', 'must list at least one variant');
  if (variantsRaw.length > MAX_VARIANTS_PER_LISTING) throw invalidField('variants', `must list at most ${MAX_VARIANTS_PER_LISTING} variants`);
  const variants = variantsRaw.map((v, i) => parseVariantInput(`variants[${i}]`, v));
  uniqueSkus('variants', variants);
  const productData = parseProductDataInput('productData', body['productData'] ?? body['product_data']);
  return { sku: requiredSku('sku', body['sku']), variants, ...(productData ? { productData } : {}) };
}

export interface ListingPatch {
  productData?: ListingProductDataInput & { removeAttributeIds?: string[] };
  variants?: (VariantInput & { removeAttributeIds?: Partial<Record<'productData' | 'identifiers' | 'logistics' | 'pricing', string[]>> })[];
}

/** The seller's edit (DESIGN.md PATCH): attributes given replace those with the same id; others stay. */
export function parseListingPatch(body: unknown): ListingPatch {
  if (!isObject(body)) throw invalidField('body', 'must be an object');
  const out: ListingPatch = {};
  const productData = parseProductDataInput('productData', body['productData'] ?? body['product_data']);
  if (productData) {
    const raw = body['productData'] ?? body['product_data'];
    const remove = optionalStrings('productData.removeAttributeIds', isObject(raw) ? raw['removeAttributeIds'] : undefined);
    out.productData = { ...productData, ...(remove ? { removeAttributeIds: remove } : {}) };
  }
  const variantsRaw = body['variants'];
  if (variantsRaw !== undefined && variantsRaw !== null) {
    if (!Array.isArray(variantsRaw)) throw invalidField('variants', 'must be an array');
    if (variantsRaw.length > MAX_VARIANTS_PER_LISTING) throw invalidField('variants', `must list at most ${MAX_VARIANTS_PER_LISTING} variants`);
    out.variants = variantsRaw.map((v, i) => {
      const parsed = parseVariantInput(`variants[${i}]`, v);
      const removeAttributeIds: Partial<Record<'productData' | 'identifiers' | 'logistics' | 'pricing', string[]>> = {};
      for (const group of ['productData', 'identifiers', 'logistics', 'pricing'] as const) {
        const g = (v as Json)[group];
        const ids = optionalStrings(`variants[${i}].${group}.removeAttributeIds`, isObject(g) ? g['removeAttributeIds'] : undefined);
        if (ids) removeAttributeIds[group] = ids;
      }
      return Object.keys(removeAttributeIds).length > 0 ? { ...parsed, removeAttributeIds } : parsed;
    });
    uniqueSkus('variants', out.variants);
  }
  return out;
}
