import type { Db } from '../../db/tx.js';
import { requireStorefront } from './storefront-settings.js';
import { SELECT_TYPES, storefrontValidValuesFor } from './storefront-valid-values.js';
import { listStorefrontAttributeSpecs, type AttributeSpecView } from './taxonomy.js';

/**
 * What the seller is offered for a product type of a storefront (resolutions §7): the channel's attribute
 * specs, where a select spec's validValues are the storefront's own when the channel set some
 * (POST /v2/storefront/listing/valid_values), else the spec's.
 */

export interface OfferedAttributeSpec extends AttributeSpecView {
  /** true when validValues are the storefront's own rather than the spec's. */
  storefrontValidValues: boolean;
}

export async function attributeSpecsOfferedToSeller(db: Db, accountId: number, storefrontId: number, productTypeId: string): Promise<OfferedAttributeSpec[]> {
  await requireStorefront(db, accountId, storefrontId);
  const specs = await listStorefrontAttributeSpecs(db, { accountId, storefrontId }, productTypeId);
  const own = await storefrontValidValuesFor(
    db,
    accountId,
    storefrontId,
    specs.filter((s) => SELECT_TYPES.includes(s.type)).map((s) => s.attributeSpecId),
  );
  return specs.map((s) => {
    const values = own.get(s.attributeSpecId);
    return values ? { ...s, validValues: values, storefrontValidValues: true } : { ...s, storefrontValidValues: false };
  });
}
