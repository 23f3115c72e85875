import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { listWarehousesOfAccount } from '../../domain/accounts/warehouses.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, TAGS, WarehouseListEntry, adminResponses } from './schemas.js';

const WarehouseList = Type.Object(
  { results: Type.Array(WarehouseListEntry) },
  {
    examples: [
      {
        results: [
          { warehouseId: 1, name: 'Main', channelFulfilled: false, controlledByInstallationId: null },
          { warehouseId: 2, name: 'East', channelFulfilled: false, controlledByInstallationId: 3 },
        ],
      },
    ],
  },
);

export function registerListWarehouses(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/warehouses',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "List an account's warehouses",
        description: 'With the installation, if any, that controls each warehouse\'s stock.',
        params: AccountParams,
        response: adminResponses({ 200: WarehouseList }, [400, 401, 404]),
      },
    },
    async (request) => ({ results: await listWarehousesOfAccount(deps.db.db, request.params.accountId) }),
  );
}
