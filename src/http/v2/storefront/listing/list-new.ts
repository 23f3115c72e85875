import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { listProductDataPoll } from '../../../../domain/listings/product-polls.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { ListingPage } from '../../../schemas/listings.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';
import { pollCursor, pollFilter, PollQuery } from './poll-params.js';

const PATH = '/v2/storefront/listing/new';
const CURSOR_ROUTE = `GET ${PATH}`;

export function registerListNewListings(app: App, deps: Deps) {
  app.get(
    PATH,
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Poll listings not yet on the channel',
        description:
          'The storefront\'s listings with product data enabled none of whose variants has a channel id yet, ' +
          'whose product data changed after `since` (exclusive; absent = from the beginning), oldest change ' +
          'first, 25 a page: what to create on the channel. Once a variant gets a channel id ' +
          '(POST /v2/storefront/listing/variant/{sku}/channel_id) its listing moves to ' +
          'GET /v2/storefront/listing/product_data/updated. Same shape, content rules and paging as that poll.',
        querystring: PollQuery,
        response: v2Responses({ 200: ListingPage }, [400, 401, 403, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const storefrontId = principal.storefrontId!;
      const filter = pollFilter(deps, CURSOR_ROUTE, storefrontId, request.query as Record<string, unknown>);
      const page = await listProductDataPoll(deps.db.db, principal.accountId, 'new', filter);
      return { listings: page.listings, nextPageCursor: pollCursor(deps, CURSOR_ROUTE, storefrontId, page.next) };
    },
  );
}
