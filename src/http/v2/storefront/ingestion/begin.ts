import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { beginIngestion, parseListingCount } from '../../../../domain/listings/ingestion-session.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { BeginIngestionBody, BeginIngestionResponse } from '../../../schemas/ingestion.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export function registerBeginIngestion(app: App, deps: Deps) {
  app.post(
    '/v2/storefront/listing/ingestion/begin',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Begin an ingestion',
        description:
          'Opens an ingestion session for the calling storefront: then POST …/ingestion/request once per listing ' +
          'already live on the channel, then POST …/ingestion/end. A storefront has at most one open session: a ' +
          'second begin is 409 ALREADY_EXISTS (finish the open one with end first) and changes nothing. ' +
          'Response {}, as the production message (resolutions §7): the session is the storefront\'s open one, ' +
          'and the operator API lists it with its id.',
        body: BeginIngestionBody,
        response: v2Responses({ 200: BeginIngestionResponse }, [400, 401, 403, 409, 429]),
      },
    },
    async (request) => {
      const body = request.body;
      const expectedNumListings = parseListingCount('expectedNumListings', body.expectedNumListings ?? body.expected_num_listings);
      const autoApply = body.autoApplyIngestionPlan ?? body.auto_apply_ingestion_plan ?? false;
      const principal = principalOf(request);
      await withTx(deps.db.db, (tx) => beginIngestion(tx, principal.accountId, principal.storefrontId!, { expectedNumListings, autoApply }, deps.clock.now()));
      return {};
    },
  );
}
