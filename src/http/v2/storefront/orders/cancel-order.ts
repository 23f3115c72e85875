import { Type, type Static } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { invalidField } from '../../../../domain/errors.js';
import { cancelStorefrontOrder } from '../../../../domain/orders/cancel-actions.js';
import { MAX_CANCEL_LINES } from '../../../../domain/orders/cancel.js';
import { principalOf } from '../../../plugins/auth.js';
import { Int64Input, v2Responses } from '../../../schemas/common.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';
import { fulfillmentPort } from '../../../../domain/fulfillment/port.js';

const CancelQuantities = Type.Record(Type.String(), Int64Input, {
  maxProperties: MAX_CANCEL_LINES,
  description: 'lineItemId (the service line id, used as the key as it is) → units to cancel (int64, at least 1)',
});

/** proto3 JSON: camelCase names, snake_case aliases accepted. */
const CancelOrderBody = Type.Object({
  channelOrderId: Type.Optional(Type.String({ description: 'the order id the channel used when creating the order' })),
  channel_order_id: Type.Optional(Type.String()),
  cancelQuantities: Type.Optional(CancelQuantities),
  cancel_quantities: Type.Optional(CancelQuantities),
}, { examples: [{ channelOrderId: '112-5550001-0000001', cancelQuantities: { '5531': '1' } }] });
type CancelOrderBody = Static<typeof CancelOrderBody>;

export function registerStorefrontCancelOrder(app: App, deps: Deps) {
  app.post(
    '/v2/storefront/orders/cancel',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Cancel items of an order',
        description:
          'Cancels units of the storefront\'s own order named by `channelOrderId`. `cancelQuantities` maps the ' +
          'service\'s lineItemId to the units to cancel. Only units not shipped can be cancelled: more than a ' +
          'line still has is a 400 and nothing changes. Reserved stock goes back to available; units already ' +
          'acknowledged by a fulfillment partner reach it as a CANCELLATION_REASON_CHANNEL_CANCELLED request in ' +
          'need_to_cancel. The order\'s status follows (CANCELLED when every unit is cancelled). Response {}.',
        body: CancelOrderBody,
        response: v2Responses({ 200: Type.Object({}) }, [400, 401, 403, 404, 409, 429]),
      },
    },
    async (request) => {
      const body: CancelOrderBody = request.body;
      const channelOrderId = body.channelOrderId ?? body.channel_order_id;
      const cancelQuantities = body.cancelQuantities ?? body.cancel_quantities;
      if (channelOrderId === undefined) throw invalidField('channelOrderId', 'is required');
      if (cancelQuantities === undefined) throw invalidField('cancelQuantities', 'is required');
      return withTx(deps.db.db, (tx) =>
        cancelStorefrontOrder(tx, principalOf(request), { channelOrderId, cancelQuantities }, deps.clock.now(), fulfillmentPort),
      );
    },
  );
}
