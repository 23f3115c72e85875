import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { shipInboundShipment } from '../../../domain/inbound/ship-shipment.js';
import { shipmentRecord } from '../../../domain/inbound/view.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { InboundShipment, ShipBody, ShipmentIdParams } from '../../schemas/inbound.js';
import { INBOUND_ROUTE_CONFIG, INBOUND_TAGS } from './route-config.js';

export function registerShipShipment(app: App, deps: Deps) {
  app.post(
    '/v1/inbound-shipment/:id/ship',
    {
      config: INBOUND_ROUTE_CONFIG,
      schema: {
        tags: INBOUND_TAGS,
        summary: 'Mark an inbound shipment shipped',
        description:
          'PENDING → SHIPPED (resolutions §8), setting `shipped_at`. On a SHIPPED shipment the call only updates the ' +
          'fields given (a retry, or a corrected tracking number; `shipped_at` stays). `carrier`, `tracking` and ' +
          '`expected_delivery_date` (YYYY-MM-DD, or an RFC 3339 timestamp whose UTC date is kept) are optional: a field ' +
          'left out stays as it is, null or blank clears it. The body may be omitted. PARTIALLY_RECEIVED, RECEIVED and ' +
          'CANCELLED shipments are a 400 naming the status. Another account\'s shipment, or one bound for a warehouse ' +
          'outside an `inventory:self` token\'s mappings, is a 404. Answers the record.',
        params: ShipmentIdParams,
        body: ShipBody,
        response: v1Responses({ 200: InboundShipment }, [400, 401, 403, 404, 409, 413, 429]),
      },
      // No body at all means "no fields to change", as the description promises. Fastify's text/plain parser
      // reads an empty body as "" rather than no body; that is no body too (resolutions §7).
      preValidation: async (request) => {
        const body: unknown = request.body;
        if (body === undefined || body === null || body === '') request.body = {};
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const row = await withTx(deps.db.db, (tx) => shipInboundShipment(tx, principal, request.params.id, request.body, deps.clock.now()));
      return shipmentRecord(deps.db.db, principal, row);
    },
  );
}
