import { Type } from '@sinclair/typebox';
import { MAX_SKU_OVERRIDES } from '../../../domain/inventory/channel-rules-store.js';
import { Nullable, Sku } from '../../schemas/common.js';

// Types only: ranges, unknown and channel-fulfilled warehouses and unknown SKUs are checked by the domain,
// which the console's form shares, so every problem is named by its field in one answer.
const ruleFields = {
  warehouseIds: Type.Optional(Nullable(Type.Array(Type.Integer(), { maxItems: 1000, description: 'warehouses that feed the channel; default (absent or null): every seller warehouse that is not channel-fulfilled' }))),
  percent: Type.Optional(Type.Integer({ description: '1–100: the share of available units listed, rounded down (default 100)' })),
  safetyQuantity: Type.Optional(Type.Integer({ description: 'at or under it the channel sees 0 (default 0)' })),
  maxQuantity: Type.Optional(Nullable(Type.Integer({ description: 'the most the channel is shown; null = no cap (default)' }))),
  fixedQuantity: Type.Optional(Nullable(Type.Integer({ description: 'listed whatever the stock (made-to-order goods); null = from stock (default)' }))),
};

/** One SKU's exception in the body: the console's exception form is checked against it too. */
export const SkuOverrideBody = Type.Object({ sku: Sku(), ...ruleFields }, { additionalProperties: false, description: 'a field left out follows the storefront; null is a value' });

/** The body of PUT …/storefronts/{id}/inventory-rules; the console's rules form is checked against it too. */
export const RulesBody = Type.Object(
  {
    ...ruleFields,
    skuOverrides: Type.Optional(
      Type.Array(SkuOverrideBody, {
        maxItems: MAX_SKU_OVERRIDES,
        description: `per-SKU exceptions (at most ${MAX_SKU_OVERRIDES}); each SKU once, from the catalog`,
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ percent: 80, safetyQuantity: 2, maxQuantity: 50, skuOverrides: [{ sku: 'MUG-RED', fixedQuantity: 10 }] }],
  },
);
