import { Type } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { getStorefrontVariant } from '../../../../domain/listings/storefront-reads.js';
import { principalOf } from '../../../plugins/auth.js';
import { Sku, v2Responses } from '../../../schemas/common.js';
import { VariantV2 } from '../../../schemas/listings.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';
import { READ_CONTENT_NOTE } from './get-listing.js';

export function registerGetStorefrontVariant(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/listing/variant/:sku',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Get a variant by SKU',
        description:
          `The storefront's variant with this SKU (exact), also one whose listing was deleted while it stays live on the channel. ${READ_CONTENT_NOTE} ` +
          'Unknown, or another storefront\'s: 404.',
        params: Type.Object({ sku: Sku({ description: 'the variant SKU' }) }),
        response: v2Responses({ 200: VariantV2 }, [401, 403, 404, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return getStorefrontVariant(deps.db.db, principal.accountId, principal.storefrontId!, request.params.sku);
    },
  );
}
