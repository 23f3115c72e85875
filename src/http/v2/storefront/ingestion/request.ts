import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { normaliseIngestionListing } from '../../../../domain/listings/ingestion-listing.js';
import { receiveIngestionListing } from '../../../../domain/listings/ingestion-session.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { IngestionListingBody } from '../../../schemas/ingestion.js';
import { Type } from '@sinclair/typebox';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export function registerIngestionRequest(app: App, deps: Deps) {
  app.post(
    '/v2/storefront/listing/ingestion/request',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Push one ingestion listing',
        description:
          'One listing already live on the channel (2.19), inside the open session. `id` becomes the listing SKU ' +
          'and the channel listing id; each variant SKU is also its channel id; `price` (google.type.Money) is kept ' +
          'as the pricing attribute "price" (a moneyValue). Sending the same id again replaces the earlier body. ' +
          'A malformed listing (no id, no variants, an empty or repeated SKU, a bad price or attribute value) is a ' +
          '400 naming the field and nothing is stored; without an open session: 400 FAILED_PRECONDITION. Response {}.',
        body: IngestionListingBody,
        response: v2Responses({ 200: Type.Object({}) }, [400, 401, 403, 409, 429]),
      },
    },
    async (request) => {
      const listing = normaliseIngestionListing(request.body);
      const principal = principalOf(request);
      await withTx(deps.db.db, (tx) => receiveIngestionListing(tx, principal.accountId, principal.storefrontId!, listing, deps.clock.now()));
      return {};
    },
  );
}
