import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { getListingV1 } from '../../../domain/listings/v1-list.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { ListingIdParamsV1, ListingV1Schema } from '../../schemas/listings-v1.js';

export function registerGetListingV1(app: App, deps: Deps) {
  app.get(
    '/v1/listing/:listingid',
    {
      config: { auth: {} },
      schema: {
        tags: ['v1 listings'],
        summary: 'Get one listing',
        description:
          'The listing in the document 2.1 shape. Any token of the account may read; a sales-channel token only ' +
          'its own storefront\'s listings. An unknown, non-numeric, another account\'s or (for a storefront ' +
          'token) another storefront\'s listing id is a 404.',
        params: ListingIdParamsV1,
        response: v1Responses({ 200: ListingV1Schema }, [401, 404, 429]),
      },
    },
    async (request) => getListingV1(deps.db.db, principalOf(request), request.params.listingid),
  );
}
