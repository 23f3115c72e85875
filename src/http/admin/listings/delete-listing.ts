import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { notFound } from '../../../domain/errors.js';
import { findListing } from '../../../domain/listings/view.js';
import { deleteListing } from '../../../domain/listings/write.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { ListingParams, TAGS } from './schemas.js';

export function registerAdminDeleteListing(app: App, deps: Deps) {
  app.delete(
    '/admin/accounts/:accountId/listings/:listingId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Delete a listing (seller)',
        description:
          'Removes the listing and its variants. Variants that have a channel id are live on the channel, so they are ' +
          'kept, detached from any listing: their stock still syncs and the drift route reports them with an empty ' +
          'listingId. `detachedSkus` names them.',
        params: ListingParams,
        response: adminResponses({ 200: Type.Object({ listingId: Type.Integer(), detachedSkus: Type.Array(Type.String()) }) }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, listingId } = request.params;
      const now = deps.clock.now();
      return withTx(deps.db.db, async (tx) => {
        if (!(await findListing(tx, accountId, listingId))) throw notFound(`listing ${listingId} not found in this account`);
        const { detachedSkus } = await deleteListing(tx, accountId, listingId, now);
        return { listingId, detachedSkus };
      });
    },
  );
}
