import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { getSimpleInventoryV1 } from '../../../domain/inventory/v1-sku-read.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { SimpleInventoryV1, SkuParams } from '../../schemas/inventory-v1.js';
import { V1_INVENTORY_ROUTE_CONFIG } from './route-config.js';

export function registerGetSimpleInventory(app: App, deps: Deps) {
  app.get(
    '/v1/simpleInventory/:SKU',
    {
      config: V1_INVENTORY_ROUTE_CONFIG,
      schema: {
        tags: ['v1 inventory'],
        summary: 'Total available quantity of a SKU',
        description:
          'The simple inventory record (document 2.3): the SKU\'s available units summed over the account\'s ' +
          'warehouses (over its own mapped warehouses only for a token whose inventory scope is inventory:self). ' +
          'An unknown SKU, or one of another account, is a 404.',
        params: SkuParams,
        response: v1Responses({ 200: SimpleInventoryV1 }, [401, 403, 404, 429]),
      },
    },
    async (request) => getSimpleInventoryV1(deps.db, principalOf(request), request.params.SKU),
  );
}
