import type { Deps } from '../../../deps.js';
import { listDeliveries } from '../../../domain/callbacks/deliveries.js';
import { decodeV2Cursor, encodeCursor } from '../../pagination.js';
import type { App } from '../../types.js';
import { ADMIN_ROUTE_CONFIG, TAGS } from '../schemas.js';
import { DeliveryList, ListDeliveriesQuery, callbackResponses } from './schemas.js';

const CURSOR_ROUTE = 'GET /admin/deliveries';

interface CursorState {
  i: number;
}

const isCursorState = (v: unknown): v is CursorState => typeof v === 'object' && v !== null && Number.isSafeInteger((v as CursorState).i);

export function registerListDeliveries(app: App, deps: Deps) {
  app.get(
    '/admin/deliveries',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'List callback deliveries',
        description:
          'Callback deliveries newest first, optionally only one account, app, storefront, state or kind. Page with ' +
          '`cursor`/`nextCursor` ("" on the last page), repeating the same filters.',
        querystring: ListDeliveriesQuery,
        response: callbackResponses({ 200: DeliveryList }, [400, 401]),
      },
    },
    async (request) => {
      const q = request.query;
      const cursor = decodeV2Cursor(deps.signer, CURSOR_ROUTE, q.cursor, isCursorState);
      const page = await listDeliveries(
        deps.db.db,
        {
          ...(q.accountId !== undefined ? { accountId: q.accountId } : {}),
          ...(q.appId !== undefined ? { appId: q.appId } : {}),
          ...(q.storefrontId !== undefined ? { storefrontId: q.storefrontId } : {}),
          ...(q.state ? { state: q.state } : {}),
          ...(q.kind ? { kind: q.kind } : {}),
        },
        cursor?.i ?? null,
        q.pageSize ?? 50,
      );
      return {
        results: page.deliveries,
        nextCursor: page.nextAfterRowId === null ? '' : encodeCursor(deps.signer, CURSOR_ROUTE, { i: page.nextAfterRowId } satisfies CursorState),
      };
    },
  );
}
