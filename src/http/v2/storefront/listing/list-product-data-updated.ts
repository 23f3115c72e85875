import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { listProductDataPoll } from '../../../../domain/listings/product-polls.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { ListingPage } from '../../../schemas/listings.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';
import { pollCursor, pollFilter, PollQuery } from './poll-params.js';

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
      const page = await listProductDataPoll(deps.db.db, principal.accountId, 'updated', filter, deps.db);
      return { listings: page.listings, nextPageCursor: pollCursor(deps, CURSOR_ROUTE, storefrontId, page.next) };
    },
  );
}
