import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { notFound } from '../../../domain/errors.js';
import { loadListingViews } from '../../../domain/listings/view.js';
import { ListingV2 } from '../../schemas/listings.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { ListingParams, TAGS } from './schemas.js';

export function registerAdminGetListing(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/listings/:listingId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Read a listing (seller)',
        description: 'The listing in the v2 shape with every attribute, including any the storefront polls leave out for exceeding maxUniqueItems.',
        params: ListingParams,
        response: adminResponses({ 200: ListingV2 }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, listingId } = request.params;
      const [view] = await loadListingViews(deps.db.db, accountId, [listingId], { forPoll: false });
      if (!view) throw notFound(`listing ${listingId} not found in this account`);
      return view;
    },
  );
}
