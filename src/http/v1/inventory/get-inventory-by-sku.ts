import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
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
          'SKU, with available and assembled quantities, the bin holding the on-hand units and the last change. ' +
          '`warehouseUniqueId` is the caller\'s own id for the warehouse, else the warehouse id as a string; ' +
          '`warehouseId` is an addition to the document shape. A token whose inventory scope is inventory:self ' +
          'sees only its mapped warehouses, and the total over them. An unknown SKU, or one of another ' +
          'account, is a 404. `inboundShipments` is always empty for now.',
        params: SkuParams,
        response: v1Responses({ 200: DetailedInventoryV1 }, [401, 403, 404, 429]),
      },
    },
    async (request) => getInventoryRecordV1(deps.db, principalOf(request), request.params.SKU),
  );
}
