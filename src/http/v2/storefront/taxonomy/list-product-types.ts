import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { listProductTypes, MAX_PRODUCT_TYPES_PER_STOREFRONT } from '../../../../domain/listings/taxonomy.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { ProductTypeList } from '../../../schemas/taxonomy.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export function registerListProductTypes(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/taxonomy/product_type',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'List the storefront\'s product types',
        description:
          'Every product type of the token\'s storefront, ordered by productTypeId, in one answer (no paging): a ' +
          `storefront holds at most ${MAX_PRODUCT_TYPES_PER_STOREFRONT} product types, so the list is always complete.`,
        response: v2Responses({ 200: ProductTypeList }, [401, 403, 429]),
      },
    },
    async (request) => ({ productTypes: await listProductTypes(deps.db.db, principalOf(request)) }),
  );
}
