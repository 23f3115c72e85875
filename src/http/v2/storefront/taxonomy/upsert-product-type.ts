import { Type, type Static } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { MAX_PRODUCT_TYPES_PER_STOREFRONT, parseProductType, upsertProductType } from '../../../../domain/listings/taxonomy.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { ProductTypeBody, ProductTypeV2 } from '../../../schemas/taxonomy.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export function registerUpsertProductType(app: App, deps: Deps) {
  app.post(
    '/v2/storefront/taxonomy/product_type',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Create or update a product type',
        description:
          'Body `{productType: {productTypeId*, displayName, description}}`, or the product type object itself. ' +
          'Upsert by productTypeId: displayName and description are replaced (absent = ""), createdAt is kept and ' +
          'updatedAt moves. Answers `{productType}` (the production definition wraps it). Creating one past the storefront\'s ' +
          `${MAX_PRODUCT_TYPES_PER_STOREFRONT} product types is a 400 FAILED_PRECONDITION.`,
        body: ProductTypeBody,
        response: v2Responses({ 200: Type.Object({ productType: ProductTypeV2 }) }, [400, 401, 403, 409, 429]),
      },
    },
    async (request) => {
      const body: Static<typeof ProductTypeBody> = request.body;
      const wrapped = body.productType ?? body.product_type;
      const name = body.productType != null ? 'productType' : 'product_type';
      const input = wrapped != null ? parseProductType(wrapped, name) : parseProductType(body, '');
      const productType = await withTx(deps.db.db, (tx) => upsertProductType(tx, principalOf(request), input, deps.clock.now()));
      return { productType };
    },
  );
}
