import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { parseOrderNumber } from '../../../domain/orders/find-order.js';
import { listSellerAlerts, type AlertPosition } from '../../../domain/fulfillment/seller-alerts.js';
import { decodeV2Cursor, encodeCursor } from '../../pagination.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, adminResponses } from '../schemas.js';
import { AlertList, ListAlertsQuery, TAGS } from './schemas.js';

const CURSOR_ROUTE = 'GET /admin/accounts/:accountId/alerts';

/** u: unroutable lines below that line id; b: stored alerts below that id; neither: stored alerts from the newest. */
interface CursorState {
  u?: number;
  b?: number;
}

const isCursorState = (v: unknown): v is CursorState =>
  typeof v === 'object' &&
  v !== null &&
  ((v as CursorState).u === undefined || Number.isSafeInteger((v as CursorState).u)) &&
  ((v as CursorState).b === undefined || Number.isSafeInteger((v as CursorState).b));

function positionOf(state: CursorState | null): AlertPosition | null {
  if (state === null) return null;
  if (state.u !== undefined) return { lines: true, beforeLineId: state.u };
  return { lines: false, beforeId: state.b ?? null };
}

function stateOf(position: AlertPosition): CursorState {
  if (position.lines) return position.beforeLineId === null ? {} : { u: position.beforeLineId };
  return position.beforeId === null ? {} : { b: position.beforeId };
}

// A cursor is bound to the account it was issued for: another account's cursor is an invalid cursor (400).
const cursorRoute = (accountId: number) => `${CURSOR_ROUTE}#${accountId}`;

export function registerListAlerts(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/alerts',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "List the account's alerts",
        description:
          'First, one open `UNROUTABLE_LINE` alert per order line that could not be routed (its SKU is unknown, or no ' +
          'warehouse can hold its backorder; resolutions §6), newest line first: alertId and fulfillmentOrderId are ' +
          'null, warehouseId is the default warehouse the units count as backordered in, lineItemId names the line. ' +
          'It cannot be resolved by hand: it disappears once the line is routed (stock of its SKU arrives) or cancelled. ' +
          'Then the fulfillment alerts, newest first: those the service raised for the seller (a rejection whose units ' +
          'found no other warehouse; a partner confirming a cancellation of units that had already shipped) and those ' +
          'partners raised. Filter by status (OPEN/RESOLVED) and orderNumber. Page with `cursor`/`nextCursor` ("" on the ' +
          'last page), repeating the same filters.',
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
        positionOf(cursor ?? null),
        q.pageSize ?? 50,
      );
      return {
        results: page.alerts,
        nextCursor: page.next === null ? '' : encodeCursor(deps.signer, cursorRoute(accountId), stateOf(page.next) satisfies CursorState),
      };
    },
  );
}
