import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { shipFulfillmentOrder } from '../../../domain/fulfillment/ship.js';
import { invalidArgument } from '../../../domain/errors.js';
import { principalOf } from '../../plugins/auth.js';
import { timestampParam } from '../../params.js';
import { v2Responses } from '../../schemas/common.js';
import { MAX_BATCH, ShipmentsBody, ShipmentsResponse } from '../../schemas/shipping-v2.js';
import { echoId, pick, runEntry } from './batch.js';
import { SHIPPING_ROUTE_CONFIG, TAGS } from './route-config.js';

export function registerShipments(app: App, deps: Deps) {
  app.post(
    '/v2/shipping/shipments',
    {
      config: SHIPPING_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Report shipments of fulfillment orders',
        description:
          `1 to ${MAX_BATCH} entries; one result per entry {fulfillmentOrderId, externalShipmentId, success, errorMessage, ` +
          'alreadyRecorded}. trackingNumber and serviceLevel are required; shippedTs defaults to now, and may be neither ' +
          'before the order\'s orderTs nor more than a day after now. Omit `lines` (or ' +
          'send []) to ship everything still owed; otherwise {lineItemId, quantity} per line, at least 1 and at most what ' +
          'the line still owes (summed per line). Replay-safe on externalShipmentId: a replay answers alreadyRecorded true ' +
          'and changes nothing. One shipment never spans two fulfillment orders. Fails (success false): a bad line id, ' +
          'quantity < 1 or more than owed, a shippedTs out of those bounds (the message names the entry, ' +
          '`shipments[i].shippedTs`, and the shipment), a rejected order, an externalShipmentId already used on another fulfillment ' +
          'order of the same order, unknown or not-your order. The shipment becomes a package on the sales order, the ' +
          'same as a v1 shipment.',
        body: ShipmentsBody,
        response: v2Responses({ 200: ShipmentsResponse }, [400, 401, 403, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const now = deps.clock.now();
      const results = [];
      for (const [index, raw] of request.body.shipments.entries()) {
        const fulfillmentOrderId = pick(raw.fulfillmentOrderId, raw.fulfillment_order_id);
        const externalShipmentId = pick(raw.externalShipmentId, raw.external_shipment_id);
        const outcome = await runEntry(deps, request.log, (tx) => {
          const shippedRaw = pick(raw.shippedTs, raw.shipped_ts);
          let shippedTs: Date | null = null;
          if (shippedRaw !== null && shippedRaw !== '') {
            shippedTs = timestampParam(`shipments[${index}].shippedTs`, shippedRaw);
          }
          const lines = raw.lines ?? null;
          if (lines !== null && !Array.isArray(lines)) throw invalidArgument('lines must be a list');
          return shipFulfillmentOrder(
            tx,
            principal,
            {
              fulfillmentOrderId,
              externalShipmentId,
              carrier: raw.carrier ?? null,
              trackingNumber: pick(raw.trackingNumber, raw.tracking_number),
              trackingUrl: pick(raw.trackingUrl, raw.tracking_url),
              serviceLevel: pick(raw.serviceLevel, raw.service_level),
              shippedTs,
              field: `shipments[${index}]`,
              lines: lines?.map((l) => ({ lineItemId: pick(l.lineItemId, l.line_item_id), quantity: l.quantity })) ?? null,
              shippingCost: pick(raw.shippingCost, raw.shipping_cost),
              handlingCost: pick(raw.handlingCost, raw.handling_cost),
            },
            now,
          );
        });
        results.push({
          fulfillmentOrderId: echoId(fulfillmentOrderId),
          externalShipmentId: externalShipmentId ?? '',
          success: outcome.ok,
          errorMessage: outcome.ok ? '' : outcome.errorMessage,
          alreadyRecorded: outcome.ok && outcome.value.alreadyRecorded,
        });
      }
      return { results };
    },
  );
}
