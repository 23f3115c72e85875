import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { getAttributeSpec } from '../../../../domain/listings/taxonomy.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { AttributeSpecParams, AttributeSpecV2 } from '../../../schemas/taxonomy.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export function registerGetAttributeSpec(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/taxonomy/attribute_spec/:productTypeId/:attributeSpecId',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Get one attribute spec',
        description: 'The attribute spec (document 2.15). Unknown (or another storefront\'s) is a 404.',
        params: AttributeSpecParams,
        response: v2Responses({ 200: AttributeSpecV2 }, [400, 401, 403, 404, 429]),
      },
    },
    async (request) =>
      getAttributeSpec(deps.db.db, principalOf(request), request.params.productTypeId, request.params.attributeSpecId),
  );
}
