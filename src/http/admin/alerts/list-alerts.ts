import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { parseOrderNumber } from '../../../domain/orders/find-order.js';
import { listSellerAlerts } from '../../../domain/fulfillment/seller-alerts.js';
import { decodeV2Cursor, encodeCursor } from '../../pagination.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, adminResponses } from '../schemas.js';
import { AlertList, ListAlertsQuery, TAGS } from './schemas.js';

const CURSOR_ROUTE = 'GET /admin/accounts/:accountId/alerts';

interface CursorState {
  b: number;
}

const isCursorState = (v: unknown): v is CursorState => typeof v === 'object' && v !== null && Number.isSafeInteger((v as CursorState).b);

// A cursor is bound to the account it was issued for: another account's cursor is an invalid cursor (400).
const cursorRoute = (accountId: number) => `${CURSOR_ROUTE}#${accountId}`;

export function registerListAlerts(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/alerts',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "List the account's fulfillment alerts",
        description:
          'Alerts the service raised for the seller (a rejection whose units found no other warehouse; a partner ' +
          'confirming a cancellation of units that had already shipped) and alerts partners raised, newest first. ' +
          'Filter by status (OPEN/RESOLVED) and orderNumber. Page with `cursor`/`nextCursor` ("" on the last page), ' +
          'repeating the same filters.',
        params: AccountParams,
        querystring: ListAlertsQuery,
        response: adminResponses({ 200: AlertList }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId } = request.params;
      const q = request.query;
      const cursor = decodeV2Cursor(deps.signer, cursorRoute(accountId), q.cursor, isCursorState);
      const page = await listSellerAlerts(
        deps.db.db,
        accountId,
        {
          ...(q.status ? { status: q.status } : {}),
          ...(q.orderNumber !== undefined ? { orderId: parseOrderNumber(q.orderNumber) } : {}),
        },
        cursor?.b ?? null,
        q.pageSize ?? 50,
      );
      return {
        results: page.alerts,
        nextCursor:
          page.nextBeforeId === null ? '' : encodeCursor(deps.signer, cursorRoute(accountId), { b: page.nextBeforeId } satisfies CursorState),
      };
    },
  );
}
