import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { listNeedToShip } from '../../../domain/fulfillment/queues.js';
import { principalOf } from '../../plugins/auth.js';
import { clampPageSize, decodeV2Cursor, encodeCursor } from '../../pagination.js';
import { v2Query } from '../../params.js';
import { v2Responses } from '../../schemas/common.js';
import { NeedToShipResponse, PageQuery } from '../../schemas/shipping-v2.js';
import { SHIPPING_ROUTE_CONFIG, TAGS } from './route-config.js';
import { isQueueCursor, type QueueCursor } from './cursor.js';

const CURSOR_ROUTE = 'GET /v2/shipping/need_to_ship';

export function registerListNeedToShip(app: App, deps: Deps) {
  app.get(
    '/v2/shipping/need_to_ship',
    {
      config: SHIPPING_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Fulfillment orders you owe a shipment on',
        description:
          'Authoritative, not incremental: every call lists the fulfillment orders of your warehouses that still owe at ' +
          'least one unit (NEW, ACCEPTED, PARTIALLY_SHIPPED, PARTIALLY_CANCELLED; never REJECTED), with only the owed ' +
          'quantities on their lines. Acknowledging does not remove an order; shipping everything, a cancellation by ' +
          'the service or your rejection does. Page with `cursor`/`nextCursor` ("" on the last page); `pageSize` ' +
          'default 50, at most 500 (larger values are lowered).',
        querystring: PageQuery,
        response: v2Responses({ 200: NeedToShipResponse }),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const query = request.query as Record<string, unknown>;
      const isOwn = (v: unknown): v is QueueCursor => isQueueCursor(v) && v.n === principal.installationId;
      const cursor = decodeV2Cursor(deps.signer, CURSOR_ROUTE, query.cursor as string | undefined, isOwn);
      const page = await listNeedToShip(deps.db.db, principal, cursor?.i ?? null, clampPageSize(v2Query(query, 'pageSize') as number | undefined), deps.db);
      return {
        orders: page.items,
        nextCursor: page.nextAfter === null ? '' : encodeCursor(deps.signer, CURSOR_ROUTE, { i: page.nextAfter, n: principal.installationId } satisfies QueueCursor),
      };
    },
  );
}
