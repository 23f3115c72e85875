import { Type } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { getStorefrontListingBySku } from '../../../../domain/listings/storefront-reads.js';
import { principalOf } from '../../../plugins/auth.js';
import { Sku, v2Responses } from '../../../schemas/common.js';
import { ListingV2 } from '../../../schemas/listings.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';
import { READ_CONTENT_NOTE } from './get-listing.js';

export function registerGetStorefrontListingBySku(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/listing/sku/:sku',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Get the listing that contains a variant SKU',
        description:
          `The storefront's listing that contains a variant with SKU \`sku\` (exact). When no variant of the storefront has ` +
          'that SKU, the listing whose own group SKU it is. A variant kept after its listing was deleted has no listing ' +
          `(404). ${READ_CONTENT_NOTE} Unknown, or another storefront's or account's: 404.`,
        params: Type.Object({ sku: Sku({ description: 'a variant SKU, or the listing\'s group SKU' }) }),
        response: v2Responses({ 200: ListingV2 }, [401, 403, 404, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return getStorefrontListingBySku(deps.db.db, principal.accountId, principal.storefrontId!, request.params.sku);
    },
  );
}
