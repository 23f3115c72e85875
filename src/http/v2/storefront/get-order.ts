import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { invalidField } from '../../../domain/errors.js';
import { getStorefrontOrder } from '../../../domain/storefront/order-read.js';
import { principalOf } from '../../plugins/auth.js';
import { v2Query } from '../../params.js';
import { v2Responses } from '../../schemas/common.js';
import { ShippedOrder } from '../../schemas/shipped-orders.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from './route-config.js';

// int64 query values arrive as text; the domain checks them (not a whole number: 400 naming the field).
const Int64 = (description: string) => Type.Optional(Type.String({ description }));

const Query = Type.Object(
  {
    channelOrderId: Type.Optional(Type.String({ description: 'the order id the channel used when creating the order' })),
    channel_order_id: Type.Optional(Type.String({ description: 'snake_case alias of channelOrderId' })),
    orderNumber: Int64('int64: the service\'s order number'),
    order_number: Int64('snake_case alias of orderNumber'),
    purchaseOrderId: Int64('int64: the service\'s order id, which is its order number'),
    purchase_order_id: Int64('snake_case alias of purchaseOrderId'),
  },
  { additionalProperties: true },
);

/** One value of a query parameter as text; "" counts as not given, a repeated key is a 400. */
function single(query: Record<string, unknown>, name: string): string | null {
  const v = v2Query(query, name);
  if (Array.isArray(v)) throw invalidField(name, 'must be given once');
  if (v === undefined || v === null || v === '') return null;
  return String(v);
}

export function registerGetStorefrontOrder(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/order',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Get one of the storefront\'s orders',
        description:
          'Exactly one of `channelOrderId`, `orderNumber` or `purchaseOrderId` (none or more than one: 400 ' +
          'INVALID_ARGUMENT); `orderNumber` and `purchaseOrderId` are both the service\'s order number (int64; not a ' +
          'whole number: 400). Answers `{order}` in the same ShippedOrder view as GET /v2/storefront/orders/shipped ' +
          '(document 2.16: line items, one package per tracking number), for an order in any status. Orders of ' +
          'other storefronts or accounts, and unknown ones, are a 404.',
        querystring: Query,
        response: v2Responses({ 200: Type.Object({ order: ShippedOrder }) }, [400, 401, 403, 404, 429]),
      },
    },
    async (request) => {
      const query = request.query as Record<string, unknown>;
      const order = await getStorefrontOrder(deps.db.db, principalOf(request), {
        channelOrderId: single(query, 'channelOrderId'),
        orderNumber: single(query, 'orderNumber'),
        purchaseOrderId: single(query, 'purchaseOrderId'),
      });
      return { order };
    },
  );
}
