import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { getListingV1 } from '../../../domain/listings/v1-list.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { ListingIdParamsV1, ListingV1Schema } from '../../schemas/listings-v1.js';
import { V1_LISTING_ROUTE_CONFIG } from './route-config.js';

export function registerGetListingV1(app: App, deps: Deps) {
  app.get(
    '/v1/listing/:listingid',
    {
      config: V1_LISTING_ROUTE_CONFIG,
      schema: {
        tags: ['v1 listings'],
        summary: 'Get one listing',
        description:
          'The listing in the document 2.1 shape. Scope legacy or listing:self; a sales-channel token reads only ' +
          'its own storefront\'s listings, other tokens the whole account. An unknown, non-numeric, another account\'s or (for a storefront ' +
          'token) another storefront\'s listing id is a 404.',
        params: ListingIdParamsV1,
        response: v1Responses({ 200: ListingV1Schema }, [401, 403, 404, 429]),
      },
    },
    async (request) => getListingV1(deps.db.db, principalOf(request), request.params.listingid),
  );
}
