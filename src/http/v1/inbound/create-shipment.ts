import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { createInboundShipment } from '../../../domain/inbound/create-shipment.js';
import { backorderPort } from '../../../domain/fulfillment/backorder-port.js';
import { shipmentRecord } from '../../../domain/inbound/view.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { CreateShipmentBody, InboundShipment } from '../../schemas/inbound.js';
import { INBOUND_ROUTE_CONFIG, INBOUND_TAGS } from './route-config.js';

export function registerCreateShipment(app: App, deps: Deps) {
  app.post(
    '/v1/inbound-shipment',
    {
      config: INBOUND_ROUTE_CONFIG,
      schema: {
        tags: INBOUND_TAGS,
        summary: 'Create an inbound shipment (a purchase order)',
        description:
          'Document 2.5: `status`, `vendor_name`, `destination_warehouse_id`, `purchase_order_number` and 1 to 500 ' +
          '`inbound_shipment_products` (each by `sku` or `product_id`, each SKU once) are required. The shipment starts in ' +
          'the status sent. A shipment that already arrived is created RECEIVED (every unit received) or ' +
          'PARTIALLY_RECEIVED (`received_quantity` per product, at least one unit and not all): those units are taken ' +
          'in by a receipt in the same transaction, exactly as POST /v1/inbound-shipment/{id}/receive does (stock, ' +
          'backorders, landed cost, and its warehouse rule: a warehouse an integration controls is received only by ' +
          'that integration\'s token, 403 otherwise). The vendor is found by name, case-insensitively, and created when new. ' +
          'Unknown SKUs are a 400 unless `create_new_products` is true. An `inventory:self` token creates shipments for ' +
          'its mapped warehouses only. Every problem is listed at once and nothing is stored. Answers the record.',
        body: CreateShipmentBody,
        response: v1Responses({ 200: InboundShipment }, [400, 401, 403, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const row = await withTx(deps.db.db, (tx) => createInboundShipment(tx, principal, request.body, deps.clock.now(), backorderPort));
      return shipmentRecord(deps.db.db, principal, row);
    },
  );
}
