import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { confirmCancellation } from '../../../domain/fulfillment/confirm-cancellations.js';
import { principalOf } from '../../plugins/auth.js';
import { v2Responses } from '../../schemas/common.js';
import { ConfirmCancellationsBody, ConfirmCancellationsResponse, MAX_BATCH } from '../../schemas/shipping-v2.js';
import { echoId, pick, runEntry } from './batch.js';
import { SHIPPING_ROUTE_CONFIG, TAGS } from './route-config.js';

export function registerConfirmCancellations(app: App, deps: Deps) {
  app.post(
    '/v2/shipping/fulfillment_orders/confirm_cancellations',
    {
      config: SHIPPING_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Confirm cancellation requests from need_to_cancel',
        description:
          `1 to ${MAX_BATCH} entries {fulfillmentOrderId, alreadyShipped}; one result per entry. success true means the ` +
          'request is drained: a confirmation, a replay (alreadyRecorded true) or an alreadyShipped report (the seller is ' +
          'alerted; report the shipment through POST /v2/shipping/shipments as normal). Confirm only what you actually ' +
          'cancelled. Fails (success false, the request stays in need_to_cancel): `lines` sent (partial confirmations are ' +
          'unsupported: omit lines), unknown or not-your order. Failures to handle rather than retry: no outstanding ' +
          'request for the order; the order already shipped or rejected.',
        body: ConfirmCancellationsBody,
        response: v2Responses({ 200: ConfirmCancellationsResponse }, [400, 401, 403, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const now = deps.clock.now();
      const results = [];
      for (const raw of request.body.confirmations) {
        const fulfillmentOrderId = pick(raw.fulfillmentOrderId, raw.fulfillment_order_id);
        const outcome = await runEntry(deps, request.log, (tx) =>
          confirmCancellation(
            tx,
            principal,
            { fulfillmentOrderId, lines: raw.lines ?? null, alreadyShipped: pick(raw.alreadyShipped, raw.already_shipped) === true },
            now,
          ),
        );
        results.push({
          fulfillmentOrderId: echoId(fulfillmentOrderId),
          success: outcome.ok,
          errorMessage: outcome.ok ? '' : outcome.errorMessage,
          alreadyRecorded: outcome.ok && outcome.value.alreadyRecorded,
        });
      }
      return { results };
    },
  );
}
