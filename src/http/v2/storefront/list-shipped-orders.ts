import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { listShippedOrders } from '../../../domain/storefront/shipped-orders.js';
import { principalOf } from '../../plugins/auth.js';
import { clampPageSize, decodeV2Cursor, encodeCursor } from '../../pagination.js';
import { booleanParam, listParam, optionalTimestampParam, v2Query } from '../../params.js';
import { v2Responses } from '../../schemas/common.js';
import { ShippedOrder } from '../../schemas/shipped-orders.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from './route-config.js';

const CURSOR_ROUTE = 'GET /v2/storefront/orders/shipped';

/** Cursor payload: keyset position and the storefront it was issued to (another's is invalid). */
interface CursorState {
  t: string;
  i: number;
  s: number;
}

function isCursorState(v: unknown): v is CursorState {
  const c = v as CursorState | null;
  return typeof c === 'object' && c !== null && typeof c.t === 'string' && Number.isSafeInteger(c.i) && Number.isSafeInteger(c.s);
}

const Query = Type.Object(
  {
    lastUpdatedTs: Type.Optional(Type.String({ description: 'RFC 3339 with a time zone; inclusive lower bound on the last update' })),
    last_updated_ts: Type.Optional(Type.String({ description: 'snake_case alias of lastUpdatedTs' })),
    salesChannelStatus: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.String())], {
        description: 'only orders whose last status confirmed by the channel (confirmStatus) is one of these; comma-separated or repeated',
      }),
    ),
    sales_channel_status: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description: 'snake_case alias' })),
    cursor: Type.Optional(Type.String({ description: 'nextPageCursor of the previous page; empty or absent for the first page' })),
    pageSize: Type.Optional(Type.Integer({ description: 'default 50 (also for 0 or negative); values above 500 are lowered to 500' })),
    page_size: Type.Optional(Type.Integer({ description: 'snake_case alias of pageSize' })),
    include_channel_fulfilled_orders: Type.Optional(Type.Union([Type.Boolean(), Type.String()], { description: 'default false' })),
    includeChannelFulfilledOrders: Type.Optional(Type.Union([Type.Boolean(), Type.String()], { description: 'camelCase alias' })),
  },
  { additionalProperties: true },
);

export function registerListShippedOrders(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/orders/shipped',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'List the storefront\'s shipped orders',
        description:
          'The storefront\'s orders whose internal status is SHIPPED or PARTIALLY_SHIPPED (this filter always ' +
          'applies), oldest `lastUpdatedTs` first. `lastUpdatedTs` is an inclusive lower bound; ' +
          '`salesChannelStatus` further keeps orders whose last status confirmed through ' +
          'POST /v1/salesOrder/{orderNumber}/confirmStatus is one of the values given. Orders the channel ' +
          'fulfills (fba or channelWillFulfill) are left out unless `include_channel_fulfilled_orders=true`. ' +
          'One package entry per tracking number. Page with `cursor`/`nextPageCursor` ("" on the last page), ' +
          'repeating the same filters; an order updated while you page may appear again, never be lost.',
        querystring: Query,
        response: v2Responses({ 200: Type.Object({ orders: Type.Array(ShippedOrder), nextPageCursor: Type.String() }) }, [400, 401, 403, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const storefrontId = principal.storefrontId!;
      const query = request.query as Record<string, unknown>;
      const isOwnCursor = (v: unknown): v is CursorState => isCursorState(v) && v.s === storefrontId;
      const cursor = decodeV2Cursor(deps.signer, CURSOR_ROUTE, query.cursor as string | undefined, isOwnCursor);
      const include = v2Query(query, 'includeChannelFulfilledOrders') ?? query.include_channel_fulfilled_orders;
      const page = await listShippedOrders(deps.db.db, principal.accountId, {
        storefrontId,
        lastUpdatedTs: optionalTimestampParam('lastUpdatedTs', v2Query(query, 'lastUpdatedTs') as string | undefined),
        salesChannelStatuses: listParam(v2Query(query, 'salesChannelStatus') as string | string[] | undefined),
        includeChannelFulfilled: booleanParam('include_channel_fulfilled_orders', include as string | boolean | undefined, false),
        after: cursor ? { updatedAt: cursor.t, id: cursor.i } : null,
        pageSize: clampPageSize(v2Query(query, 'pageSize') as number | undefined),
      });
      const next = page.next;
      return {
        orders: page.orders,
        nextPageCursor: next ? encodeCursor(deps.signer, CURSOR_ROUTE, { t: next.updatedAt, i: next.id, s: storefrontId } satisfies CursorState) : '',
      };
    },
  );
}
