import { Type, type Static } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { receiveReturn } from '../../../domain/orders/returns-receive.js';
import { Nullable } from '../../schemas/common.js';
import { SalesOrderV1 } from '../../schemas/sales-orders-v1.js';
import { ADMIN_ROUTE_CONFIG, Id, adminResponses } from '../schemas.js';
import { changeOrder } from './operator.js';
import { ReturnParams, TAGS } from './schemas.js';

export const ReceiveReturnBody = Type.Object(
  {
    restockWarehouseId: Type.Optional(
      Nullable(Id('warehouse to put the returned units back into; null or absent = not restocked (stock unchanged)')),
    ),
  },
  { additionalProperties: false, examples: [{ restockWarehouseId: 1 }, { restockWarehouseId: null }] },
);

export function registerAdminReceiveReturn(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/orders/:orderNumber/returns/:returnOrderId/receive',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Record a return as received, restocked or not',
        description:
          'The returned units arrived: they count as returned on their lines (the order is RETURNED once every ' +
          'shipped unit is back and nothing is owed). With `restockWarehouseId` they go back in stock there: ' +
          'on-hand and available rise, the inventory timestamps move, and backorders waiting there for the SKU ' +
          'are filled oldest order first (a kit line restocks the kit SKU itself, as an assembled kit). Without ' +
          'it (no body, `{}` or null) stock does not change. An unknown warehouse, another account\'s, or a line ' +
          'whose SKU is not in the catalog is a 400; a warehouse whose stock an inventory or 3PL integration ' +
          'controls is a 409. Receiving again with the same choice changes nothing (restocked once, even in ' +
          'parallel); with another choice it is a 409 saying what was recorded. A return closed before it was ' +
          'received is a 400. Answers the order (v1 shape).',
        params: ReturnParams,
        body: ReceiveReturnBody,
        response: adminResponses(
          { 200: SalesOrderV1 },
          [400, 401, 404, 409],
          'the warehouse\'s stock is controlled by an integration, or the return was already received with another choice',
        ),
      },
      // No body at all means "not restocked", as before restocking existed.
      preValidation: async (request) => {
        const body: unknown = request.body;
        if (body === undefined || body === null || body === '') request.body = {};
      },
    },
    async (request) => {
      const { accountId, orderNumber, returnOrderId } = request.params;
      const body: Static<typeof ReceiveReturnBody> = request.body;
      const now = deps.clock.now();
      return withTx(deps.db.db, (tx) =>
        changeOrder(tx, accountId, orderNumber, (orderId) =>
          receiveReturn(tx, accountId, orderId, returnOrderId, { restockWarehouseId: body.restockWarehouseId ?? null }, now),
        ),
      );
    },
  );
}
