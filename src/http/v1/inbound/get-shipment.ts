import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { findVisibleShipment, shipmentRecord } from '../../../domain/inbound/view.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { InboundShipment, ShipmentIdParams } from '../../schemas/inbound.js';
import { INBOUND_ROUTE_CONFIG, INBOUND_TAGS } from './route-config.js';

export function registerGetShipment(app: App, deps: Deps) {
  app.get(
    '/v1/inbound-shipment/:id',
    {
      config: INBOUND_ROUTE_CONFIG,
      schema: {
        tags: INBOUND_TAGS,
        summary: 'Read an inbound shipment',
        description:
          'Status, vendor, warehouse and delivery information (document 4.3) in the record of resolutions §3, with the ' +
          'received quantity of each line and every receipt. Another account\'s shipment, or one bound for a warehouse ' +
          'outside an `inventory:self` token\'s mappings, is a 404.',
        params: ShipmentIdParams,
        response: v1Responses({ 200: InboundShipment }, [400, 401, 403, 404, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const row = await findVisibleShipment(deps.db.db, principal, request.params.id);
      return shipmentRecord(deps.db.db, principal, row);
    },
  );
}
