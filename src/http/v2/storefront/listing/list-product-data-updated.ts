import { Type } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { listProductDataPoll, type PollFilter, type PollPosition } from '../../../../domain/listings/product-polls.js';
import { principalOf } from '../../../plugins/auth.js';
import { decodeV2Cursor, encodeCursor } from '../../../pagination.js';
import { optionalTimestampParam, v2Query } from '../../../params.js';
import { v2Responses } from '../../../schemas/common.js';
import { ListingV2 } from '../../../schemas/listings.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

/** Shared by the product-data and pricing polls (each binds its cursor to its own route). */
export const PollQuery = Type.Object(
  {
    since: Type.Optional(Type.String({ description: 'RFC 3339 with a time zone; exclusive lower bound on the change' })),
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

/** Reads `since` and `cursor` of a poll: 400 for a timestamp without zone or an unreadable or foreign cursor. */
export function pollFilter(deps: Deps, route: string, storefrontId: number, query: Record<string, unknown>): PollFilter {
  const isOwn = (v: unknown): v is CursorState => isCursorState(v) && v.s === storefrontId;
  const cursor = decodeV2Cursor(deps.signer, route, query.cursor as string | undefined, isOwn);
  return {
    storefrontId,
    since: optionalTimestampParam('since', v2Query(query, 'since') as string | undefined),
    after: cursor ? { ts: cursor.t, id: cursor.i } : null,
  };
}

export function pollCursor(deps: Deps, route: string, storefrontId: number, next: PollPosition | null): string {
  return next ? encodeCursor(deps.signer, route, { t: next.ts, i: next.id, s: storefrontId } satisfies CursorState) : '';
}

export const ListingPage = Type.Object({
  listings: Type.Array(ListingV2),
  nextPageCursor: Type.String({ description: '"" on the last page' }),
});

const PATH = '/v2/storefront/listing/product_data/updated';
const CURSOR_ROUTE = `GET ${PATH}`;

export function registerListProductDataUpdated(app: App, deps: Deps) {
  app.get(
    PATH,
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Poll listings whose product data changed',
        description:
          'The storefront\'s listings that (1) have at least one variant with a channel id, (2) had a product-data ' +
          'change after `since` (exclusive; absent = from the beginning): the listing\'s productData, category, ' +
          'product type or pivots, or any variant\'s productData, identifiers, logistics or settings, and ' +
          '(3) have product data enabled. Oldest change first, 25 listings a page. Listings without any channel ' +
          'id yet are polled with GET /v2/storefront/listing/new instead; prices with ' +
          '/v2/storefront/listing/variant/pricing/updated. Attributes over their specification\'s maxUniqueItems ' +
          'are left out (document 2.14). A variant whose product data is disabled is still listed, with ' +
          '`productData.enabled` false. Page with `cursor`/`nextPageCursor` ("" on the last page), repeating the ' +
          'same `since`; a listing changed again while you page may appear again, never be lost. An unreadable ' +
          'cursor is a 400. For the next round keep as `since` the time this round started (for instance the ' +
          '`Date` header of its first response): no timestamp in the listing is the poll\'s own change time.',
        querystring: PollQuery,
        response: v2Responses({ 200: ListingPage }, [400, 401, 403, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const storefrontId = principal.storefrontId!;
      const filter = pollFilter(deps, CURSOR_ROUTE, storefrontId, request.query as Record<string, unknown>);
      const page = await listProductDataPoll(deps.db.db, principal.accountId, 'updated', filter);
      return { listings: page.listings, nextPageCursor: pollCursor(deps, CURSOR_ROUTE, storefrontId, page.next) };
    },
  );
}
