import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { listInventoryChanges, type InventoryKeyset } from '../../../domain/inventory/v2-list.js';
import { principalOf } from '../../plugins/auth.js';
import { clampPageSize, decodeV2Cursor, encodeCursor } from '../../pagination.js';
import { optionalTimestampParam, v2Query } from '../../params.js';
import { v2Responses } from '../../schemas/common.js';
import { ListInventoryQuery, ListInventoryResponse } from '../../schemas/inventory-v2.js';
import { INVENTORY_ROUTE_CONFIG, TAGS } from './route-config.js';

const CURSOR_ROUTE = 'GET /v2/inventory';

/** Cursor payload: the keyset position and the installation it was issued to (another's is invalid). */
interface CursorState {
  t: string;
  i: number;
  n: number | null;
}

function isCursorState(v: unknown): v is CursorState {
  const c = v as CursorState | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.t === 'string' &&
    Number.isSafeInteger(c.i) &&
    (c.n === null || Number.isSafeInteger(c.n))
  );
}

export function registerListInventory(app: App, deps: Deps) {
  app.get(
    '/v2/inventory',
    {
      config: INVENTORY_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'List inventory of the integration\'s warehouses',
        description:
          'Stock rows (SKU × warehouse) of the warehouses mapped to the calling integration, oldest change first, ' +
          'with the on-hand quantity (a JSON number: int32 in the definition). `updatedSince` (inclusive) limits the list to rows changed at or after that ' +
          'instant; repeat it on every page. Page with `cursor`/`nextCursor` ("" on the last page); a row changed ' +
          'while you page may appear again, never be lost. Query names may also be snake_case.',
        querystring: ListInventoryQuery,
        response: v2Responses({ 200: ListInventoryResponse }),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const query = request.query as Record<string, unknown>;
      const updatedSince = optionalTimestampParam('updatedSince', v2Query(query, 'updatedSince') as string | undefined);
      // A cursor issued to another integration is as unreadable as a tampered one.
      const isOwnCursor = (v: unknown): v is CursorState => isCursorState(v) && v.n === principal.installationId;
      const cursor = decodeV2Cursor(deps.signer, CURSOR_ROUTE, query.cursor as string | undefined, isOwnCursor);
      const after: InventoryKeyset | null = cursor ? { updatedAt: cursor.t, id: cursor.i } : null;
      const page = await listInventoryChanges(deps.db.db, principal, {
        updatedSince,
        after,
        pageSize: clampPageSize(v2Query(query, 'pageSize') as number | undefined),
      });
      const next = page.next;
      return {
        items: page.items.map((item) => ({
          sku: item.sku,
          warehouseUniqueId: item.warehouseUniqueId,
          quantity: item.onhand,
          lastUpdatedTs: item.lastUpdatedTs,
        })),
        nextCursor: next ? encodeCursor(deps.signer, CURSOR_ROUTE, { t: next.updatedAt, i: next.id, n: principal.installationId } satisfies CursorState) : '',
      };
    },
  );
}
