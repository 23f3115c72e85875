import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { deleteAttributeSpec } from '../../../../domain/listings/taxonomy.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { AttributeSpecParams, Empty } from '../../../schemas/taxonomy.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export function registerDeleteAttributeSpec(app: App, deps: Deps) {
  app.delete(
    '/v2/storefront/taxonomy/attribute_spec/:productTypeId/:attributeSpecId',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Delete one attribute spec',
        description:
          'Deletes the attribute spec; the product type stays. Unknown (or another storefront\'s) is a 404. Response {}.',
        params: AttributeSpecParams,
        response: v2Responses({ 200: Empty }, [400, 401, 403, 404, 429]),
      },
    },
    async (request) => {
      const { productTypeId, attributeSpecId } = request.params;
      await withTx(deps.db.db, (tx) => deleteAttributeSpec(tx, principalOf(request), productTypeId, attributeSpecId, deps.clock.now()));
      return {};
    },
  );
}
