import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { inboundOnTheWay } from '../../../domain/inbound/on-the-way.js';
import { getInventoryRecordV1 } from '../../../domain/inventory/v1-sku-read.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { DetailedInventoryV1, SkuParams } from '../../schemas/inventory-v1.js';
import { V1_INVENTORY_ROUTE_CONFIG } from './route-config.js';

export function registerGetInventoryBySku(app: App, deps: Deps) {
  app.get(
    '/v1/inventory/:SKU',
    {
      config: V1_INVENTORY_ROUTE_CONFIG,
      schema: {
        tags: ['v1 inventory'],
        summary: 'Detailed inventory of a SKU',
        description:
          'The detailed inventory record (document 2.3): one entry per warehouse holding a stock record of the ' +
          'SKU or expecting units of it on an open inbound shipment, with available and assembled quantities, the ' +
          'bin holding the on-hand units and the last change. `warehouseUniqueId` is the caller\'s own id for the ' +
          'warehouse, else the warehouse id as a string; `warehouseId` is an addition to the document shape.\n\n' +
          '`inboundShipments` lists what is on the way to the warehouse: each PENDING, SHIPPED or PARTIALLY_RECEIVED ' +
          'inbound shipment with a line of this SKU not fully received, oldest shipment first, as `{quantity (units ' +
          'sent on the line), expectedDeliveryDate (YYYY-MM-DD or null), tracking, carrier}` plus the additions ' +
          '`inboundShipmentId`, `status` and `receivedQuantity` (units of the line received so far; the units still ' +
          'coming are quantity − receivedQuantity). A warehouse expecting units but holding no stock record yet is ' +
          'shown with availableQuantity 0. Receipts add the units to available stock and take the line off the list ' +
          'once it is fully received.\n\n' +
          'A token whose inventory scope is inventory:self sees only its mapped warehouses (and what is on the way to ' +
          'them), and the total over them. An unknown SKU, or one of another account, is a 404.',
        params: SkuParams,
        response: v1Responses({ 200: DetailedInventoryV1 }, [401, 403, 404, 429]),
      },
    },
    async (request) => getInventoryRecordV1(deps.db, principalOf(request), request.params.SKU, inboundOnTheWay),
  );
}
