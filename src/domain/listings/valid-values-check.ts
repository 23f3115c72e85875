import type { Db } from '../../db/tx.js';
import { invalidFields, type FieldViolation } from '../errors.js';
import type { AttributeInput, ListingProductDataInput, VariantInput } from './model.js';
import { SELECT_TYPES, storefrontValidValuesFor } from './storefront-valid-values.js';
import { readStoredSpec, type SpecType } from './taxonomy-spec.js';

/**
 * The seller's choices against the channel's select lists (resolutions §7): on the seller's create and edit
 * of a listing, an attribute whose spec (same product type as the listing, attribute id = attributeSpecId)
 * is TYPE_SELECT or TYPE_MULTI_SELECT with valid values must take its values from them: the storefront's
 * own valid values when the channel set some, else the spec's. A spec without valid values constrains
 * nothing. Only values the request gives are checked (stored ones stay as they are); listings the channel
 * pushes itself (ingestion) are its own data and are not checked.
 */

export interface SelectSpec {
  type: SpecType;
  validValues: string[];
  /** true when the values are the storefront's own (POST /v2/storefront/listing/valid_values). */
  fromStorefront: boolean;
}

/** attributeSpecId → the select specs of the product type, with the values that apply on this storefront. */
export async function selectSpecsOf(db: Db, accountId: number, storefrontId: number, productTypeId: string): Promise<Map<string, SelectSpec>> {
  const result = new Map<string, SelectSpec>();
  if (productTypeId === '') return result;
  const rows = await db
    .selectFrom('taxonomy_attribute_specs')
    .select(['attribute_spec_id', 'spec'])
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .where('product_type_id', '=', productTypeId)
    .execute();
  const selects = rows.map((r) => ({ id: r.attribute_spec_id, spec: readStoredSpec(r.spec) })).filter((r) => SELECT_TYPES.includes(r.spec.type));
  if (selects.length === 0) return result;
  const own = await storefrontValidValuesFor(
    db,
    accountId,
    storefrontId,
    selects.map((s) => s.id),
  );
  for (const s of selects) {
    const storefrontValues = own.get(s.id);
    result.set(s.id, { type: s.spec.type, validValues: storefrontValues ?? s.spec.validValues, fromStorefront: storefrontValues !== undefined });
  }
  return result;
}

/** Attribute values of a request, each with the path the seller sent it under (for messages). */
export type AttributesAt = { path: string; attributes: AttributeInput[] | undefined }[];

/** The attribute lists of a listing body or edit, with their paths. */
export function attributesOfRequest(productData: ListingProductDataInput | undefined, variants: VariantInput[] | undefined): AttributesAt {
  const out: AttributesAt = [{ path: 'productData.attributes', attributes: productData?.attributes }];
  (variants ?? []).forEach((v, i) => {
    for (const group of ['productData', 'identifiers', 'logistics', 'pricing'] as const) {
      out.push({ path: `variants[${i}].${group}.attributes`, attributes: v[group]?.attributes });
    }
  });
  return out;
}

const shown = (values: string[]) => (values.length <= 20 ? values.join(', ') : `${values.slice(0, 20).join(', ')}, … (${values.length} in all)`);

/** Throws INVALID_ARGUMENT naming every value outside its spec's valid values. */
export async function checkSelectValues(db: Db, accountId: number, storefrontId: number, productTypeId: string, lists: AttributesAt): Promise<void> {
  if (lists.every((l) => !l.attributes || l.attributes.length === 0)) return;
  const specs = await selectSpecsOf(db, accountId, storefrontId, productTypeId);
  if (specs.size === 0) return;
  const violations: FieldViolation[] = [];
  for (const { path, attributes } of lists) {
    (attributes ?? []).forEach((a, i) => {
      const spec = specs.get(a.id);
      if (!spec || spec.validValues.length === 0) return;
      const at = `${path}[${i}]`;
      const allowed = new Set(spec.validValues);
      const source = spec.fromStorefront ? "this storefront's valid values" : 'its valid values';
      if (a.textValue !== undefined) {
        if (!allowed.has(a.textValue)) violations.push({ field: `${at}.textValue`, description: `"${a.textValue}" is not one of ${source} for "${a.id}": ${shown(spec.validValues)}` });
      } else if (a.multiTextValue !== undefined) {
        a.multiTextValue.values.forEach((v, j) => {
          if (!allowed.has(v)) violations.push({ field: `${at}.multiTextValue.values[${j}]`, description: `"${v}" is not one of ${source} for "${a.id}": ${shown(spec.validValues)}` });
        });
      } else {
        violations.push({ field: at, description: `"${a.id}" is ${spec.type}: give a textValue${spec.type === 'TYPE_MULTI_SELECT' ? ' or a multiTextValue' : ''} from ${source}` });
      }
    });
  }
  if (violations.length > 0) throw invalidFields(violations);
}
