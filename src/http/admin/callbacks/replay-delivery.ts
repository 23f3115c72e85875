import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { replayDelivery } from '../../../domain/callbacks/deliveries.js';
import type { App } from '../../types.js';
import { ADMIN_ROUTE_CONFIG, TAGS } from '../schemas.js';
import { DeliveryParams, DeliveryView, callbackResponses } from './schemas.js';

export function registerReplayDelivery(app: App, deps: Deps) {
  app.post(
    '/admin/deliveries/:deliveryId/replay',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Send a callback delivery again',
        description:
          'Puts a DEAD or SUCCEEDED delivery back to PENDING, due now, with the whole retry schedule ahead of it; ' +
          'it is sent with the same delivery id (X-Service-Delivery-Id), to the app’s current callback base URL ' +
          'and signed with its current secrets. Answers 202 with the delivery. 409 when it is PENDING already.',
        params: DeliveryParams,
        response: callbackResponses({ 202: DeliveryView }, [401, 404, 409], 'the delivery is PENDING already'),
      },
    },
    async (request, reply) => {
      const view = await withTx(deps.db.db, (tx) => replayDelivery(tx, request.params.deliveryId, deps.clock.now()));
      return reply.code(202).send(view);
    },
  );
}
