import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { unmapWarehouse } from '../../domain/accounts/integration-changes.js';
import { warehouseWorkPort } from '../../domain/fulfillment/warehouse-handover.js';
import { ADMIN_ROUTE_CONFIG, Id, TAGS, adminResponses } from './schemas.js';

const MappingParams = Type.Object({
  accountId: Id('account id'),
  installationId: Id('installation id'),
  warehouseId: Id('a warehouse mapped to the installation'),
});

const Unmapped = Type.Object(
  {
    installationId: Type.Integer(),
    warehouseId: Type.Integer(),
    withdrawn: Type.Integer({ description: 'NEW fulfillment orders taken out of its need_to_ship' }),
    cancellationRequested: Type.Integer({ description: 'ACCEPTED ones, each now with a cancellation request in its need_to_cancel' }),
  },
  { examples: [{ installationId: 7, warehouseId: 3, withdrawn: 2, cancellationRequested: 1 }] },
);

export function registerUnmapWarehouse(app: App, deps: Deps) {
  app.delete(
    '/admin/accounts/:accountId/installations/:installationId/warehouses/:warehouseId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Unmap a warehouse from an installed integration',
        description:
          "The integration's token stops seeing the warehouse and the stock it controlled there becomes editable. " +
          "A SHIPPING or THIRD_PARTY_LOGISTICS installation's open work there is pulled back as a cancellation does: " +
          'NEW fulfillment orders are withdrawn, ACCEPTED ones get a cancellation request in its need_to_cancel (still ' +
          'readable and confirmable by it). The units stay routed and reserved in the warehouse; the next shipping or ' +
          '3PL integration mapped to it gets them as new fulfillment orders.',
        params: MappingParams,
        response: adminResponses({ 200: Unmapped }, [400, 401, 404, 409], 'the installation is revoked'),
      },
    },
    async (request) => {
      const { accountId, installationId, warehouseId } = request.params;
      return withTx(deps.db.db, (tx) => unmapWarehouse(tx, accountId, installationId, warehouseId, deps.clock.now(), warehouseWorkPort));
    },
  );
}
