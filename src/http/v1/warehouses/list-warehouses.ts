import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { listWarehousesForCaller } from '../../../domain/accounts/warehouses.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { WarehouseListV1 } from '../../schemas/inventory-v1.js';

export function registerListWarehouses(app: App, deps: Deps) {
  app.get(
    '/v1/warehouses',
    {
      config: { auth: {} },
      schema: {
        tags: ['v1 inventory'],
        summary: 'List the warehouses of the account',
        description:
          'Every warehouse of the account, with the caller\'s own `warehouseUniqueId` where its integration maps one ' +
          '(else null). `canUpdateInventory` is false when the warehouse\'s stock is controlled by another ' +
          'INVENTORY or THIRD_PARTY_LOGISTICS integration (only that integration may change it), and for a token ' +
          'whose inventory scope is inventory:self on every warehouse it does not map.',
        response: v1Responses({ 200: WarehouseListV1 }, [401, 429]),
      },
    },
    async (request) => ({ results: await listWarehousesForCaller(deps.db.db, principalOf(request)) }),
  );
}
