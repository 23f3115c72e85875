import type { Deps } from '../../../deps.js';
import { notFound } from '../../../domain/errors.js';
import { lastStatusChecks } from '../../../domain/callbacks/status-checks.js';
import type { App } from '../../types.js';
import { ADMIN_ROUTE_CONFIG, TAGS } from '../schemas.js';
import { LastStatusCheckView, StorefrontParams, callbackResponses } from './schemas.js';

export function registerLastStatusCheck(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/storefronts/:storefrontId/status-check',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Read a storefront’s last successful status check',
        description:
          'The checks[] (2.20) the partner answered to the last successful storefront status call, with the time ' +
          'and the delivery id; 404 when the storefront was never checked successfully (or is another account’s).',
        params: StorefrontParams,
        response: callbackResponses({ 200: LastStatusCheckView }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, storefrontId } = request.params;
      const last = await lastStatusChecks(deps.db.db, accountId, storefrontId);
      if (!last) throw notFound(`storefront ${storefrontId} has no successful status check`);
      return last;
    },
  );
}
