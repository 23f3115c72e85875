import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { listInventoryUpdatedVariants } from '../../../../domain/listings/inventory-polls.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { VariantPage } from '../../../schemas/listings.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';
import { pollCursor, pollFilter, PollQuery } from './poll-params.js';

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
        querystring: PollQuery,
        response: v2Responses({ 200: VariantPage }, [400, 401, 403, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const storefrontId = principal.storefrontId!;
      const filter = pollFilter(deps, CURSOR_ROUTE, storefrontId, request.query as Record<string, unknown>);
      const page = await listInventoryUpdatedVariants(deps.db.db, principal.accountId, filter);
      return { variants: page.variants, nextPageCursor: pollCursor(deps, CURSOR_ROUTE, storefrontId, page.next) };
    },
  );
}
