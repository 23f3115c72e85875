import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { receiveReturn } from '../../../domain/orders/returns.js';
import { SalesOrderV1 } from '../../schemas/sales-orders-v1.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { changeOrder } from './operator.js';
import { ReturnParams, TAGS } from './schemas.js';

export function registerAdminReceiveReturn(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/orders/:orderNumber/returns/:returnOrderId/receive',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Record a return as received',
        description:
          'The returned units arrived: they count as returned on their lines; when every shipped unit of the ' +
          'order is back the order is RETURNED. Receiving again changes nothing; a cancelled return is a 400. ' +
          'Stock is not changed (the warehouse\'s next stock update counts the units). No body. Answers the order.',
        params: ReturnParams,
        response: adminResponses({ 200: SalesOrderV1 }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, orderNumber, returnOrderId } = request.params;
      const now = deps.clock.now();
      return withTx(deps.db.db, (tx) =>
        changeOrder(tx, accountId, orderNumber, (orderId) => receiveReturn(tx, accountId, orderId, returnOrderId, now)),
      );
    },
  );
}
