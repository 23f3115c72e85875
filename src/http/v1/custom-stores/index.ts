import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { listCustomStores } from '../../../domain/accounts/custom-stores.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { CustomStoreList } from '../../schemas/custom-stores.js';

/** GET /v1/customStores (document 4.2; scopes per resolutions §7: legacy, sales or sales:orders). */
export function registerV1CustomStoreRoutes(app: App, deps: Deps): void {
  app.get(
    '/v1/customStores',
    {
      config: { auth: { scopes: ['legacy', 'sales', 'sales:orders'] } },
      schema: {
        tags: ['v1 custom stores'],
        summary: "List the seller's custom stores",
        description:
          'The integrations through which orders are uploaded by API, file upload or UI (document 2.6), ordered by ' +
          'integrationId; exactly one is the default ("Manual orders" unless the seller chose another). A seller ' +
          'token creates an order in one with POST /v1/salesOrder and its `integrationId`. Not paged: an account has ' +
          'at most 1,000 custom stores.',
        response: v1Responses({ 200: CustomStoreList }, [401, 403, 429]),
      },
    },
    async (request) => ({ results: await listCustomStores(deps.db.db, principalOf(request).accountId) }),
  );
}
