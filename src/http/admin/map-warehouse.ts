import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { mapWarehouse } from '../../domain/accounts/integration-changes.js';
import { warehouseWorkPort } from '../../domain/fulfillment/warehouse-handover.js';
import { ADMIN_ROUTE_CONFIG, Id, InstallationParams, TAGS, adminResponses } from './schemas.js';

export const MapWarehouseBody = Type.Object(
  {
    warehouseId: Id('a warehouse of this account'),
    warehouseUniqueId: Type.String({ minLength: 1, maxLength: 200, description: "the partner's id for it" }),
  },
  { additionalProperties: false, examples: [{ warehouseId: 3, warehouseUniqueId: 'WEST-01' }] },
);

const Mapped = Type.Object(
  {
    installationId: Type.Integer(),
    warehouseId: Type.Integer(),
    warehouseUniqueId: Type.String(),
    controlsStock: Type.Boolean({ description: 'true for INVENTORY and THIRD_PARTY_LOGISTICS installations' }),
    fulfillmentOrdersAssigned: Type.Integer({
      description: 'SHIPPING and THIRD_PARTY_LOGISTICS: orders with units already owed in the warehouse, now its new fulfillment orders',
    }),
  },
  { examples: [{ installationId: 7, warehouseId: 3, warehouseUniqueId: 'WEST-01', controlsStock: false, fulfillmentOrdersAssigned: 2 }] },
);

export function registerMapWarehouse(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/installations/:installationId/warehouses',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Map one more warehouse to an installed integration',
        description:
          'The same rules as the mappings of the Install button. A warehouse ships with one SHIPPING or ' +
          'THIRD_PARTY_LOGISTICS installation at a time: one that another active installation already fulfils is a ' +
          '409 naming that installation (id and app name). A shipping or 3PL installation gets the units already ' +
          "owed in the warehouse (for example work pulled back from the warehouse's previous integration) as new " +
          'fulfillment orders. A sales channel maps no warehouses (400); a revoked installation is a 409.',
        params: InstallationParams,
        body: MapWarehouseBody,
        response: adminResponses(
          { 201: Mapped },
          [400, 401, 404, 409],
          'the warehouse already ships with another active integration (the message names it), its stock is controlled ' +
            'by another one, it is already mapped to this installation, or the installation is revoked',
        ),
      },
    },
    async (request, reply) => {
      const { accountId, installationId } = request.params;
      const mapped = await withTx(deps.db.db, (tx) => mapWarehouse(tx, accountId, installationId, request.body, deps.clock.now(), warehouseWorkPort));
      return reply.code(201).send(mapped);
    },
  );
}
