import { Type } from '@sinclair/typebox';
import { Sku as SkuString } from '../../schemas/common.js';
import { Id } from '../schemas.js';

export const TAGS = ['admin'];

export const Sku = SkuString({ description: 'product SKU (exact)', examples: ['GIFT-BOX'] });

const MAX_COMPONENTS = 50;

/** The body of PUT …/products/{sku}/kit; the console's kit form is checked against it too. */
export const KitComponentsBody = Type.Object(
  {
    components: Type.Array(
      Type.Object({ sku: Sku, quantity: Type.Integer({ minimum: 1, maximum: 100000, description: 'units per kit' }) }, { additionalProperties: false }),
      { maxItems: MAX_COMPONENTS, description: 'the whole recipe; [] makes the product a single SKU again' },
    ),
  },
  { additionalProperties: false, examples: [{ components: [{ sku: 'MUG', quantity: 2 }, { sku: 'TEA', quantity: 1 }] }] },
);

export const KitParams = Type.Object({ accountId: Id('account id'), sku: Sku });

export const Kit = Type.Object(
  {
    sku: Type.String(),
    components: Type.Array(Type.Object({ sku: Type.String(), quantity: Type.Integer({ description: 'units per kit' }) })),
  },
  { examples: [{ sku: 'GIFT-BOX', components: [{ sku: 'MUG', quantity: 2 }, { sku: 'TEA', quantity: 1 }] }] },
);

export const AssembledParams = Type.Object({ accountId: Id('account id'), sku: Sku, warehouseId: Id('warehouse id') });

export const Assembled = Type.Object(
  {
    sku: Type.String(),
    warehouseId: Type.Integer(),
    assembledQuantity: Type.Integer(),
    onhandQuantity: Type.Integer(),
    availableQuantity: Type.Integer(),
    reservedQuantity: Type.Integer({ description: 'assembled kits held by open orders' }),
  },
  { examples: [{ sku: 'GIFT-BOX', warehouseId: 1, assembledQuantity: 5, onhandQuantity: 5, availableQuantity: 3, reservedQuantity: 2 }] },
);
