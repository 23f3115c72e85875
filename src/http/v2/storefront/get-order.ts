import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { getStorefrontOrder } from '../../../domain/storefront/order-read.js';
import { principalOf } from '../../plugins/auth.js';
import { v2Query } from '../../params.js';
import { v2Responses } from '../../schemas/common.js';
import { SalesOrderV1 } from '../../schemas/sales-orders-v1.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from './route-config.js';

const Query = Type.Object(
  {
    channelOrderId: Type.Optional(Type.String({ description: 'the order id the channel used when creating the order' })),
    channel_order_id: Type.Optional(Type.String({ description: 'snake_case alias of channelOrderId' })),
    orderNumber: Type.Optional(Type.String({ description: 'the service\'s order number' })),
    order_number: Type.Optional(Type.String({ description: 'snake_case alias of orderNumber' })),
  },
  { additionalProperties: true },
);

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function registerGetStorefrontOrder(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/order',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Get one of the storefront\'s orders',
        description:
          'Exactly one of `channelOrderId` or `orderNumber` (else 400). Answers `{order}` in the v1 sales order ' +
          'shape (document 2.10), the one order shape of the service, with its packages. Orders of other ' +
          'storefronts or accounts are a 404.',
        querystring: Query,
        response: v2Responses({ 200: Type.Object({ order: SalesOrderV1 }) }, [400, 401, 403, 404, 429]),
      },
    },
    async (request) => {
      const query = request.query as Record<string, unknown>;
      const order = await getStorefrontOrder(deps.db.db, principalOf(request), {
        channelOrderId: text(v2Query(query, 'channelOrderId')),
        orderNumber: text(v2Query(query, 'orderNumber')),
      });
      return { order };
    },
  );
}
