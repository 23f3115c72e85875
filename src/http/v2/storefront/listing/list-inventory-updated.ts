import { Type } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { listInventoryUpdatedVariants, type InventoryPollFilter } from '../../../../domain/listings/inventory-polls.js';
import { principalOf } from '../../../plugins/auth.js';
import { decodeV2Cursor, encodeCursor } from '../../../pagination.js';
import { optionalTimestampParam, v2Query } from '../../../params.js';
import { v2Responses } from '../../../schemas/common.js';
import { VariantV2 } from '../../../schemas/listings.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

/** Shared by the two inventory polls (each binds its cursor to its own route). */
export const InventoryPollQuery = Type.Object(
  {
    since: Type.Optional(Type.String({ description: 'RFC 3339 with a time zone; exclusive lower bound on the inventory change' })),
    cursor: Type.Optional(Type.String({ description: 'nextPageCursor of the previous page; empty or absent for the first page' })),
  },
  { additionalProperties: true },
);

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

/** Reads since and cursor of an inventory poll (400 on a timestamp without zone or a foreign cursor). */
export function inventoryPollFilter(deps: Deps, route: string, storefrontId: number, query: Record<string, unknown>): InventoryPollFilter {
  const isOwn = (v: unknown): v is CursorState => isCursorState(v) && v.s === storefrontId;
  const cursor = decodeV2Cursor(deps.signer, route, query.cursor as string | undefined, isOwn);
  return {
    storefrontId,
    since: optionalTimestampParam('since', v2Query(query, 'since') as string | undefined),
    after: cursor ? { updatedAt: cursor.t, id: cursor.i } : null,
  };
}

export function inventoryPollCursor(deps: Deps, route: string, storefrontId: number, next: { updatedAt: string; id: number } | null): string {
  return next ? encodeCursor(deps.signer, route, { t: next.updatedAt, i: next.id, s: storefrontId } satisfies CursorState) : '';
}

const CURSOR_ROUTE = 'GET /v2/storefront/listing/variant/inventory/updated';

export function registerListInventoryUpdated(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/listing/variant/inventory/updated',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Poll variants whose inventory changed',
        description:
          'The storefront\'s variants with inventory enabled whose inventory changed after `since` (exclusive; ' +
          'absent = from the beginning), oldest change first, 100 a page. Any stock or reservation change of ' +
          'the variant\'s SKU in any warehouse moves `inventory.updatedAt`, and so does the seller enabling ' +
          'inventory. Page with `cursor`/`nextPageCursor` ("" on the last page), repeating the same `since`; a ' +
          'variant changed again while you page may appear again, never be lost. An unreadable cursor is a 400.',
        querystring: InventoryPollQuery,
        response: v2Responses(
          { 200: Type.Object({ variants: Type.Array(VariantV2), nextPageCursor: Type.String({ description: '"" on the last page' }) }) },
          [400, 401, 403, 429],
        ),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const storefrontId = principal.storefrontId!;
      const filter = inventoryPollFilter(deps, CURSOR_ROUTE, storefrontId, request.query as Record<string, unknown>);
      const page = await listInventoryUpdatedVariants(deps.db.db, principal.accountId, filter);
      return { variants: page.variants, nextPageCursor: inventoryPollCursor(deps, CURSOR_ROUTE, storefrontId, page.next) };
    },
  );
}
