import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { listIngestions } from '../../../domain/listings/ingestion-admin.js';
import { decodeV2Cursor, encodeCursor } from '../../pagination.js';
import { IngestionList, ListIngestionsQuery } from '../../schemas/ingestion.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, adminResponses } from '../schemas.js';
import { TAGS } from './tags.js';

const CURSOR_ROUTE = 'GET /admin/accounts/:accountId/ingestions';

interface CursorState {
  b: number;
}

const isCursorState = (v: unknown): v is CursorState => typeof v === 'object' && v !== null && Number.isSafeInteger((v as CursorState).b);

// Bound to the account it was issued for: another account's cursor is an invalid cursor (400).
const cursorRoute = (accountId: number) => `${CURSOR_ROUTE}#${accountId}`;

export function registerListIngestions(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/ingestions',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "List the account's ingestions",
        description:
          'Ingestion sessions newest first, optionally of one storefront, each with its status, counts and plan ' +
          'summary (GET one for the whole plan). Page with `cursor`/`nextCursor` ("" on the last page), repeating ' +
          'the same filters.',
        params: AccountParams,
        querystring: ListIngestionsQuery,
        response: adminResponses({ 200: IngestionList }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId } = request.params;
      const q = request.query;
      const cursor = decodeV2Cursor(deps.signer, cursorRoute(accountId), q.cursor, isCursorState);
      const page = await listIngestions(
        deps.db.db,
        accountId,
        q.storefrontId !== undefined ? { storefrontId: q.storefrontId } : {},
        cursor?.b ?? null,
        q.pageSize ?? 50,
      );
      return {
        results: page.ingestions,
        nextCursor:
          page.nextBeforeId === null ? '' : encodeCursor(deps.signer, cursorRoute(accountId), { b: page.nextBeforeId } satisfies CursorState),
      };
    },
  );
}
