import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { deleteProductType } from '../../../../domain/listings/taxonomy.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { Empty, ProductTypeParams } from '../../../schemas/taxonomy.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export function registerDeleteProductType(app: App, deps: Deps) {
  app.delete(
    '/v2/storefront/taxonomy/product_type/:productTypeId',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Delete a product type',
        description:
          'Deletes the product type and every attribute spec under it. Listings naming it keep their productTypeId. ' +
          'An unknown product type (or another storefront\'s) is a 404. Response {}.',
        params: ProductTypeParams,
        response: v2Responses({ 200: Empty }, [400, 401, 403, 404, 429]),
      },
    },
    async (request) => {
      await withTx(deps.db.db, (tx) => deleteProductType(tx, principalOf(request), request.params.productTypeId, deps.clock.now()));
      return {};
    },
  );
}
