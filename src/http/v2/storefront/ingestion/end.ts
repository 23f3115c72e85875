import { Type } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { endIngestion, parseListingCount } from '../../../../domain/listings/ingestion-session.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { EndIngestionBody } from '../../../schemas/ingestion.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export function registerEndIngestion(app: App, deps: Deps) {
  app.post(
    '/v2/storefront/listing/ingestion/end',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'End an ingestion',
        description:
          'Closes the open session. The service then builds the ingestion plan in the background and applies it ' +
          'when begin set autoApplyIngestionPlan; otherwise the seller reviews and applies it. A count that differs ' +
          'from the listings received is reported as a conflict in the plan. Without an open session: 400 ' +
          'FAILED_PRECONDITION. Response {}.',
        body: EndIngestionBody,
        response: v2Responses({ 200: Type.Object({}) }, [400, 401, 403, 409, 429]),
      },
    },
    async (request) => {
      const body = request.body;
      const actualNumListings = parseListingCount('actualNumListings', body.actualNumListings ?? body.actual_num_listings);
      const principal = principalOf(request);
      await withTx(deps.db.db, (tx) => endIngestion(tx, principal.accountId, principal.storefrontId!, { actualNumListings }, deps.clock.now()));
      return {};
    },
  );
}
