import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { rejectFulfillmentOrder } from '../../../domain/fulfillment/reject.js';
import { principalOf } from '../../plugins/auth.js';
import { v2Responses } from '../../schemas/common.js';
import { MAX_BATCH, RejectBody, RejectResponse } from '../../schemas/shipping-v2.js';
import { echoId, pick, runEntry } from './batch.js';
import { SHIPPING_ROUTE_CONFIG, TAGS } from './route-config.js';

export function registerReject(app: App, deps: Deps) {
  app.post(
    '/v2/shipping/fulfillment_orders/reject',
    {
      config: SHIPPING_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Decline whole fulfillment orders from need_to_ship',
        description:
          `1 to ${MAX_BATCH} entries {fulfillmentOrderId, reason, detail}; one result per entry. success true means the ` +
          'work is out of your queue, including a repeat of a recorded rejection. The service then re-routes the units ' +
          'to warehouses with stock, or, when none has any, alerts the seller. Fails (success false, the work is still ' +
          'yours): reason REJECTION_REASON_UNSPECIFIED or absent; REJECTION_REASON_OTHER without detail; `lines` sent ' +
          '(partial rejections are unsupported: omit lines); an order that has shipped, part-shipped or been (partly) ' +
          'cancelled; unknown or not-your order. reason goes by name or number (proto order); an unknown name or ' +
          'number fails the whole request (400, nothing rejected).',
        body: RejectBody,
        response: v2Responses({ 200: RejectResponse }, [400, 401, 403, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const now = deps.clock.now();
      const results = [];
      for (const raw of request.body.rejections) {
        const fulfillmentOrderId = pick(raw.fulfillmentOrderId, raw.fulfillment_order_id);
        const outcome = await runEntry(deps, request.log, (tx) =>
          rejectFulfillmentOrder(tx, principal, { fulfillmentOrderId, reason: raw.reason ?? 'REJECTION_REASON_UNSPECIFIED', detail: raw.detail ?? null, lines: raw.lines ?? null }, now),
        );
        results.push({ fulfillmentOrderId: echoId(fulfillmentOrderId), success: outcome.ok, errorMessage: outcome.ok ? '' : outcome.errorMessage });
      }
      return { results };
    },
  );
}
