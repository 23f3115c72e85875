import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { closeReturn } from '../../../domain/orders/returns-close.js';
import { SalesOrderV1 } from '../../schemas/sales-orders-v1.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { changeOrder } from './operator.js';
import { ReturnParams, TAGS } from './schemas.js';

export function registerAdminCloseReturn(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/orders/:orderNumber/returns/:returnOrderId/close',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Close a return',
        description:
          'The seller is done with the return; it is no longer open. A received return is closed as it is (its ' +
          'units stay returned, any restock stays). A return never received is closed without its units: it ' +
          'shows `cancelled: true`, nothing counts as returned, stock does not move, and the units may be ' +
          'requested on a new return. An order that was RETURN_REQUESTED only because of it takes the status ' +
          'its quantities give. Closing again changes nothing. No body. Answers the order (v1 shape).',
        params: ReturnParams,
        response: adminResponses({ 200: SalesOrderV1 }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, orderNumber, returnOrderId } = request.params;
      const now = deps.clock.now();
      return withTx(deps.db.db, (tx) => changeOrder(tx, accountId, orderNumber, (orderId) => closeReturn(tx, accountId, orderId, returnOrderId, now)));
    },
  );
}
