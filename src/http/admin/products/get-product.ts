import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { getAccount } from '../../../domain/accounts/accounts.js';
import { PRODUCT_FIELDS } from '../../../domain/catalog/product-fields.js';
import { getProductView } from '../../../domain/catalog/product-read.js';
import { Nullable, Sku } from '../../schemas/common.js';
import { ADMIN_ROUTE_CONFIG, Id, adminResponses } from '../schemas.js';

const Params = Type.Object({ accountId: Id('account id'), sku: Sku({ description: 'product SKU (exact)', examples: ['MUG-01'] }) });

// Built from the one field list, so a field added there shows up here (and in files) without another edit.
const fieldSchemas = Object.fromEntries(
  PRODUCT_FIELDS.filter((f) => f.name !== 'sku' && f.name !== 'active').map((f) => [f.name, Nullable(Type.String({ description: `${f.kind}${f.readOnly ? ', read-only' : ''}` }))]),
);

const Product = Type.Object(
  {
    sku: Type.String(),
    active: Type.Boolean(),
    ...fieldSchemas,
    attributes: Type.Record(Type.String(), Type.String(), { description: "the seller's attributes {<id>: <value>}" }),
  },
  // Every field is in the answer (null when empty), so the example has them all.
  { examples: [{ ...Object.fromEntries(Object.keys(fieldSchemas).map((name) => [name, null])), sku: 'MUG-01', active: true, title: 'Blue mug', price: '12.5', upc: '012345678905', attributes: { color: 'blue' } }] },
);

export function registerAdminGetProduct(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/products/:sku',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: ['admin'],
        summary: 'Read a product (seller)',
        description:
          'The product with every catalog field by its file name (as product imports and exports name them; decimals ' +
          'and identifiers as text, null when blank) and its attributes.',
        params: Params,
        response: adminResponses({ 200: Product }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, sku } = request.params;
      await getAccount(deps.db.db, accountId);
      return getProductView(deps.db.db, accountId, sku);
    },
  );
}
