import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { acknowledgeFulfillmentOrder } from '../../../domain/fulfillment/acknowledge.js';
import { principalOf } from '../../plugins/auth.js';
import { v2Responses } from '../../schemas/common.js';
import { AcknowledgeBody, AcknowledgeResponse, MAX_BATCH } from '../../schemas/shipping-v2.js';
import { echoId, pick, runEntry } from './batch.js';
import { SHIPPING_ROUTE_CONFIG, TAGS } from './route-config.js';

export function registerAcknowledge(app: App, deps: Deps) {
  app.post(
    '/v2/shipping/fulfillment_orders/acknowledge',
    {
      config: SHIPPING_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Acknowledge fulfillment orders (NEW → ACCEPTED)',
        description:
          `1 to ${MAX_BATCH} entries {fulfillmentOrderId, externalOrderId}; each succeeds or fails on its own. Sets your ` +
          'externalOrderId (unique within your integration: a duplicate fails the entry). The order stays in need_to_ship. ' +
          'A repeat with the same externalOrderId succeeds with alreadyAcknowledged true. Fails (success false, do not ' +
          'retry): unknown or not-your order, rejected order, nothing owed (shipped or cancelled), another externalOrderId ' +
          'for an already acknowledged order.',
        body: AcknowledgeBody,
        response: v2Responses({ 200: AcknowledgeResponse }, [400, 401, 403, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const now = deps.clock.now();
      const results = [];
      for (const raw of request.body.acknowledgements) {
        const fulfillmentOrderId = pick(raw.fulfillmentOrderId, raw.fulfillment_order_id);
        const outcome = await runEntry(deps, request.log, (tx) =>
          acknowledgeFulfillmentOrder(tx, principal, { fulfillmentOrderId, externalOrderId: pick(raw.externalOrderId, raw.external_order_id) }, now),
        );
        results.push({
          fulfillmentOrderId: echoId(fulfillmentOrderId),
          success: outcome.ok,
          errorMessage: outcome.ok ? '' : outcome.errorMessage,
          alreadyAcknowledged: outcome.ok && outcome.value.alreadyAcknowledged,
        });
      }
      return { results };
    },
  );
}
