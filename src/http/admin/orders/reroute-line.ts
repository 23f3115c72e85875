import { Type, type Static } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { rerouteLine } from '../../../domain/orders/reroute.js';
import { SalesOrderV1 } from '../../schemas/sales-orders-v1.js';
import { ADMIN_ROUTE_CONFIG, Id, adminResponses } from '../schemas.js';
import { changeOrder } from './operator.js';
import { LineItemId, OrderParams, TAGS, lineIdOf } from './schemas.js';
import { fulfillmentPort } from '../../../domain/fulfillment/port.js';

export const RerouteLineBody = Type.Object(
  {
    lineItemId: LineItemId,
    fromWarehouseId: Id('warehouse the units are routed to now'),
    toWarehouseId: Id('warehouse to move them to; must have them available'),
    quantity: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false, examples: [{ lineItemId: '12', fromWarehouseId: 1, toWarehouseId: 2, quantity: 1 }] },
);

export function registerAdminRerouteLine(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/orders/:orderNumber/reroute',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Re-route units of a line to another warehouse',
        description:
          'Moves units still owed (not shipped or cancelled) from one warehouse to another. The target must have ' +
          'them available (else 409, nothing changes); they are reserved there and the source\'s reservation is ' +
          'released. A fulfillment partner of the source loses the units (NEW) or gets a ' +
          'CANCELLATION_REASON_REROUTED request (ACCEPTED); one of the target gets the work in need_to_ship. ' +
          'Answers the order (v1 shape).',
        params: OrderParams,
        body: RerouteLineBody,
        response: adminResponses({ 200: SalesOrderV1 }, [400, 401, 404, 409], 'the target warehouse lacks the units, or they changed meanwhile'),
      },
    },
    async (request) => {
      const { accountId, orderNumber } = request.params;
      const body: Static<typeof RerouteLineBody> = request.body;
      const now = deps.clock.now();
      return withTx(deps.db.db, (tx) =>
        changeOrder(tx, accountId, orderNumber, (orderId) =>
          rerouteLine(tx, accountId, orderId, { ...body, lineId: lineIdOf(body.lineItemId) }, now, fulfillmentPort),
        ),
      );
    },
  );
}
