import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { receiveShipment } from '../../../domain/inbound/receive-shipment.js';
import { backorderPort } from '../../../domain/fulfillment/backorder-port.js';
import { shipmentRecord } from '../../../domain/inbound/view.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { InboundShipment, ReceiveBody, ShipmentIdParams } from '../../schemas/inbound.js';
import { INBOUND_ROUTE_CONFIG, INBOUND_TAGS } from './route-config.js';

/** The behaviour of a receipt, shared with the operator's route (POST /admin/…/inbound-shipments/{id}/receive). */
export const RECEIVE_DESCRIPTION =
  'Records units that arrived (resolutions §8), each line by `sku` or `product_id`, each line once, 1 to 500 ' +
  'lines. A PENDING, SHIPPED or PARTIALLY_RECEIVED shipment can be received (receiving straight from PENDING is a ' +
  'shipment that arrived unannounced); a RECEIVED or CANCELLED one is a 400 naming its status. A SKU not on the ' +
  'shipment, a line named twice, or more units than are still outstanding on a line (sent − received) is a 400 ' +
  'naming the line, its outstanding and the asked quantities; every problem is listed at once and nothing ' +
  'changes. The whole receipt is one transaction; parallel receipts of one shipment run one after the other and ' +
  'never receive more than was sent.\n\n' +
  'Effects, together: each line\'s `received_quantity` rises; a receipt is added to `receipts` with ' +
  '`received_by`, each line\'s `unit_item_cost` (the one sent here, else the line\'s) and its `shipping_cost` ' +
  'share (the shipment\'s shipping cost is allocated to units by count over the whole shipment, rounded down to ' +
  '4 decimals per receipt; the final receipt takes the remainder, so the shares sum to the shipping cost); ' +
  'on-hand and available stock of the destination warehouse rise by the units (GET /v1/inventory sees the change ' +
  'through `lastInventoryUpdateTs`, channels through their inventory polls); sales orders backordered in that ' +
  'warehouse get the units reserved, oldest order first; each product\'s weighted-average `landed_cost` (vendor ' +
  'cost plus shipping share, over every costed unit received; units without a unit cost are left out) is ' +
  'updated. The status becomes RECEIVED when every line is fully received (`received_at` set), else ' +
  'PARTIALLY_RECEIVED.\n\n' +
  'A warehouse whose stock an INVENTORY or THIRD_PARTY_LOGISTICS integration controls is received only by that ' +
  'integration\'s token (403 for others).';

export function registerReceiveShipment(app: App, deps: Deps) {
  app.post(
    '/v1/inbound-shipment/:id/receive',
    {
      config: INBOUND_ROUTE_CONFIG,
      schema: {
        tags: INBOUND_TAGS,
        summary: 'Receive units of an inbound shipment',
        description:
          RECEIVE_DESCRIPTION +
          ' Another account\'s shipment, or one bound for a warehouse outside an `inventory:self` token\'s ' +
          'mappings, is a 404. Answers the record.',
        params: ShipmentIdParams,
        body: ReceiveBody,
        response: v1Responses({ 200: InboundShipment }, [400, 401, 403, 404, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const row = await withTx(deps.db.db, (tx) => receiveShipment(tx, principal, request.params.id, request.body, deps.clock.now(), backorderPort));
      return shipmentRecord(deps.db.db, principal, row);
    },
  );
}
