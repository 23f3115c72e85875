import { Type } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { getStorefrontListing } from '../../../../domain/listings/storefront-reads.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { ListingV2 } from '../../../schemas/listings.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

/** Content rule shared by the single reads: what the polls would send. */
export const READ_CONTENT_NOTE =
  'The read shows what the polls send the channel: attributes over their specification\'s maxUniqueItems are ' +
  'left out (document 2.14).';

export function registerGetStorefrontListing(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/listing/:listingId',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Get a listing by id',
        description:
          `The storefront's listing with this id (the service's own listing id, as in the polls). ${READ_CONTENT_NOTE} ` +
          'An unknown or non-numeric id, or another storefront\'s listing, is a 404.',
        params: Type.Object({ listingId: Type.String({ description: 'int64: the service\'s listing id' }) }),
        response: v2Responses({ 200: ListingV2 }, [401, 403, 404, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return getStorefrontListing(deps.db.db, principal.accountId, principal.storefrontId!, request.params.listingId);
    },
  );
}
