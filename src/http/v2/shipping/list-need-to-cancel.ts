import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { listNeedToCancel } from '../../../domain/fulfillment/queues.js';
import { principalOf } from '../../plugins/auth.js';
import { clampPageSize, decodeV2Cursor, encodeCursor } from '../../pagination.js';
import { v2Query } from '../../params.js';
import { v2Responses } from '../../schemas/common.js';
import { NeedToCancelResponse, PageQuery } from '../../schemas/shipping-v2.js';
import { SHIPPING_ROUTE_CONFIG, TAGS } from './route-config.js';
import { isQueueCursor, type QueueCursor } from './cursor.js';

const CURSOR_ROUTE = 'GET /v2/shipping/need_to_cancel';

export function registerListNeedToCancel(app: App, deps: Deps) {
  app.get(
    '/v2/shipping/need_to_cancel',
    {
      config: SHIPPING_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Cancellation requests you must act on',
        description:
          'Open cancellation requests on fulfillment orders you acknowledged (a NEW order pulled back simply loses the ' +
          'units from need_to_ship and never appears here). The units are already off need_to_ship; stop them and ' +
          'confirm with POST /v2/shipping/fulfillment_orders/confirm_cancellations (or report alreadyShipped). A request ' +
          'stays here until a confirmation succeeds; a partial cancellation leaves the order in both queues. Reasons: ' +
          'CANCELLATION_REASON_REROUTED, _BUYER_CANCELLED, _CHANNEL_CANCELLED, _MERCHANT_CANCELLED. Paging as need_to_ship.',
        querystring: PageQuery,
        response: v2Responses({ 200: NeedToCancelResponse }),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const query = request.query as Record<string, unknown>;
      const isOwn = (v: unknown): v is QueueCursor => isQueueCursor(v) && v.n === principal.installationId;
      const cursor = decodeV2Cursor(deps.signer, CURSOR_ROUTE, query.cursor as string | undefined, isOwn);
      const page = await listNeedToCancel(deps.db.db, principal, cursor?.i ?? null, clampPageSize(v2Query(query, 'pageSize') as number | undefined));
      return {
        cancellations: page.items,
        nextCursor: page.nextAfter === null ? '' : encodeCursor(deps.signer, CURSOR_ROUTE, { i: page.nextAfter, n: principal.installationId } satisfies QueueCursor),
      };
    },
  );
}
