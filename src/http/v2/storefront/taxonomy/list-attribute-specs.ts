import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { listAttributeSpecs, MAX_SPECS_PER_PRODUCT_TYPE } from '../../../../domain/listings/taxonomy.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { AttributeSpecList, ProductTypeParams } from '../../../schemas/taxonomy.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export function registerListAttributeSpecs(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/taxonomy/attribute_spec/:productTypeId',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'List the attribute specs of a product type',
        description:
          'Every attribute spec of the product type, ordered by attributeSpecId, in one answer (a product type ' +
          `holds at most ${MAX_SPECS_PER_PRODUCT_TYPE}). An unknown product type (or another storefront's) is a 404.`,
        params: ProductTypeParams,
        response: v2Responses({ 200: AttributeSpecList }, [400, 401, 403, 404, 429]),
      },
    },
    async (request) => ({
      attributeSpecs: await listAttributeSpecs(deps.db.db, principalOf(request), request.params.productTypeId),
    }),
  );
}
