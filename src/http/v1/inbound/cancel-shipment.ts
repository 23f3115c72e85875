import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { cancelInboundShipment } from '../../../domain/inbound/cancel-shipment.js';
import { shipmentRecord } from '../../../domain/inbound/view.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { InboundShipment, ShipmentIdParams } from '../../schemas/inbound.js';
import { INBOUND_ROUTE_CONFIG, INBOUND_TAGS } from './route-config.js';

export function registerCancelShipment(app: App, deps: Deps) {
  app.post(
    '/v1/inbound-shipment/:id/cancel',
    {
      config: INBOUND_ROUTE_CONFIG,
      schema: {
        tags: INBOUND_TAGS,
        summary: 'Cancel an inbound shipment',
        description:
          'PENDING or SHIPPED → CANCELLED (document 4.3, resolutions §3); `cancelled_at` is set. Any other status is a ' +
          '400 naming it: a CANCELLED shipment is already cancelled, and a PARTIALLY_RECEIVED or RECEIVED one has units ' +
          'in stock already. No body (an empty body is accepted whatever its Content-Type). Another account\'s ' +
          'shipment, or one bound for a warehouse outside an `inventory:self` token\'s mappings, is a 404. Answers the record.',
        params: ShipmentIdParams,
        response: v1Responses({ 200: InboundShipment }, [400, 401, 403, 404, 409, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const row = await withTx(deps.db.db, (tx) => cancelInboundShipment(tx, principal, request.params.id, deps.clock.now()));
      return shipmentRecord(deps.db.db, principal, row);
    },
  );
}
