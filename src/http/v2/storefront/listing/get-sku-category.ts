import { Type } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { getSkuCategory } from '../../../../domain/listings/storefront-reads.js';
import { principalOf } from '../../../plugins/auth.js';
import { Sku, v2Responses } from '../../../schemas/common.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export function registerGetSkuCategory(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/listing/sku/:sku/category',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Get the category of a SKU\'s listing',
        description:
          'The category of the listing of the storefront\'s variant `sku` (the category exists only at listing ' +
          'level; this saves a listing read). A listing\'s group SKU is accepted too. A variant whose listing was ' +
          'deleted while it stays live on the channel answers `categoryId` "". Unknown, or another storefront\'s: 404.',
        params: Type.Object({ sku: Sku({ description: 'a variant SKU (or a group SKU)' }) }),
        response: v2Responses({ 200: Type.Object({ categoryId: Type.String() }) }, [401, 403, 404, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return getSkuCategory(deps.db.db, principal.accountId, principal.storefrontId!, request.params.sku);
    },
  );
}
