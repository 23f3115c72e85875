import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { listMappedWarehouses } from '../../../domain/inventory/v2-warehouses.js';
import { principalOf } from '../../plugins/auth.js';
import { v2Responses } from '../../schemas/common.js';
import { ListWarehousesResponse } from '../../schemas/inventory-v2.js';
import { INVENTORY_ROUTE_CONFIG, TAGS } from './route-config.js';

export function registerListWarehouses(app: App, deps: Deps) {
  app.get(
    '/v2/inventory/warehouses',
    {
      config: INVENTORY_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'List the warehouses mapped to the integration',
        description:
          'The warehouses the seller mapped to this integration, by the integration\'s own warehouseUniqueId, ' +
          'with the seller\'s name for each. Other warehouses of the account are not shown.',
        response: v2Responses({ 200: ListWarehousesResponse }),
      },
    },
    async (request) => {
      const warehouses = await listMappedWarehouses(deps.db.db, principalOf(request));
      return { warehouses: warehouses.map((w) => ({ warehouseUniqueId: w.warehouseUniqueId, name: w.name })) };
    },
  );
}
