import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { findOwnFulfillmentOrder, parseFulfillmentOrderId } from '../../../domain/fulfillment/access.js';
import { fulfillmentOrderViews } from '../../../domain/fulfillment/view.js';
import { invalidArgument, notFound } from '../../../domain/errors.js';
import { principalOf } from '../../plugins/auth.js';
import { v2Query } from '../../params.js';
import { v2Responses } from '../../schemas/common.js';
import { GetFulfillmentOrderQuery, GetFulfillmentOrderResponse } from '../../schemas/shipping-v2.js';
import { SHIPPING_ROUTE_CONFIG, TAGS } from './route-config.js';

export function registerGetFulfillmentOrder(app: App, deps: Deps) {
  app.get(
    '/v2/shipping/fulfillment_order',
    {
      config: SHIPPING_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'One fulfillment order, whatever queue it is or is not in',
        description:
          'Give exactly one of `fulfillmentOrderId` or `externalOrderId` (your id from acknowledge); both or neither is ' +
          'a 400. An order that is not yours (another integration, warehouse or account) answers 404. Lines show what ' +
          'is still owed; a shipped, cancelled or rejected order has none.',
        querystring: GetFulfillmentOrderQuery,
        response: v2Responses({ 200: GetFulfillmentOrderResponse }, [400, 401, 403, 404, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const query = request.query as Record<string, unknown>;
      const foId = v2Query(query, 'fulfillmentOrderId') as string | undefined;
      const externalId = v2Query(query, 'externalOrderId') as string | undefined;
      const given = [foId, externalId].filter((v) => v !== undefined && v !== '');
      if (given.length !== 1) throw invalidArgument('give exactly one of fulfillmentOrderId or externalOrderId');
      let fo = null;
      if (foId !== undefined && foId !== '') {
        const id = parseFulfillmentOrderId(foId);
        fo = id === null ? null : await findOwnFulfillmentOrder(deps.db.db, principal, { id });
      } else if (externalId !== undefined) {
        fo = await findOwnFulfillmentOrder(deps.db.db, principal, { externalOrderId: externalId });
      }
      if (!fo) throw notFound(`fulfillment order ${foId ?? externalId ?? ''} not found`);
      return (await fulfillmentOrderViews(deps.db.db, principal, [fo]))[0]!;
    },
  );
}
