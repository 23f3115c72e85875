import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { listListingSummaries } from '../../../domain/listings/seller-list.js';
import { decodeV2Cursor, encodeCursor } from '../../pagination.js';
import { Sku, Timestamp } from '../../schemas/common.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, adminResponses, Id } from '../schemas.js';
import { TAGS } from './schemas.js';

const Query = Type.Object(
  {
    storefrontId: Type.Optional(Id('only this storefront’s listings')),
    sku: Type.Optional(Sku({ description: 'only the listing with this group SKU or with a variant of this SKU' })),
    cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page' })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'default 50' })),
  },
  { additionalProperties: false },
);

const Summary = Type.Object({
  listingId: Type.Integer(),
  storefrontId: Type.Integer(),
  sku: Type.String(),
  categoryId: Type.String(),
  productTypeId: Type.String(),
  productDataEnabled: Type.Boolean(),
  variantCount: Type.Integer(),
  liveVariantCount: Type.Integer({ description: 'variants with a channel id' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

interface CursorState {
  a: number;
}
const isCursorState = (v: unknown): v is CursorState => typeof v === 'object' && v !== null && Number.isSafeInteger((v as CursorState).a);
// Bound to the account it was issued for: another account's cursor is an invalid cursor (400).
const cursorRoute = (accountId: number) => `GET /admin/accounts/:accountId/listings#${accountId}`;

export function registerAdminListListings(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/listings',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "List the account's listings (seller)",
        description:
          'One line per listing, oldest first, optionally of one storefront or matching a SKU; GET a listing for its ' +
          'attributes and variants. Page with `cursor`/`nextCursor` ("" on the last page), repeating the same filters.',
        params: AccountParams,
        querystring: Query,
        response: adminResponses({ 200: Type.Object({ results: Type.Array(Summary), nextCursor: Type.String() }) }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId } = request.params;
      const q = request.query;
      const cursor = decodeV2Cursor(deps.signer, cursorRoute(accountId), q.cursor, isCursorState);
      const filter = { ...(q.storefrontId !== undefined ? { storefrontId: q.storefrontId } : {}), ...(q.sku !== undefined ? { sku: q.sku } : {}) };
      const page = await listListingSummaries(deps.db.db, accountId, filter, cursor?.a ?? null, q.pageSize ?? 50);
      return {
        results: page.listings,
        nextCursor: page.nextAfterId === null ? '' : encodeCursor(deps.signer, cursorRoute(accountId), { a: page.nextAfterId } satisfies CursorState),
      };
    },
  );
}
