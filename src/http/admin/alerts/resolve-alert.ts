import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { resolveSellerAlert } from '../../../domain/fulfillment/seller-alerts.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { AlertParams, ResolveBody, ResolvedAlert, TAGS } from './schemas.js';

export function registerResolveAlert(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/alerts/:alertId/resolve',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Resolve a fulfillment alert',
        description:
          'Closes an open alert of the account with the seller\'s resolution text. Resolving an alert a partner ' +
          'raised lets that partner raise the same type again. A repeat answers the alert unchanged with ' +
          'alreadyResolved true. Resolving does not change the order: re-route or cancel units with the order actions.',
        params: AlertParams,
        body: ResolveBody,
        response: adminResponses({ 200: ResolvedAlert }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, alertId } = request.params;
      const now = deps.clock.now();
      return withTx(deps.db.db, (tx) => resolveSellerAlert(tx, accountId, alertId, request.body.resolution, now));
    },
  );
}
