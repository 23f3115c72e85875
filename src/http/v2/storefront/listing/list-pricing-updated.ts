import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { listPricingUpdatedVariants } from '../../../../domain/listings/product-polls.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { VariantPage } from '../../../schemas/listings.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';
import { pollCursor, pollFilter, PollQuery } from './poll-params.js';

const PATH = '/v2/storefront/listing/variant/pricing/updated';
const CURSOR_ROUTE = `GET ${PATH}`;

export function registerListPricingUpdated(app: App, deps: Deps) {
  app.get(
    PATH,
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Poll variants whose pricing changed',
        description:
          'The storefront\'s variants whose pricing group (price attributes or scheduled sales) changed after ' +
          '`since` (exclusive; absent = from the beginning), oldest change first, 100 a page. Page with ' +
          '`cursor`/`nextPageCursor` ("" on the last page), repeating the same `since`; a variant repriced while ' +
          'you page may appear again, never be lost. An unreadable cursor is a 400. `pricing.updatedAt` is the ' +
          'change time this poll keys on.',
        querystring: PollQuery,
        response: v2Responses({ 200: VariantPage }, [400, 401, 403, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const storefrontId = principal.storefrontId!;
      const filter = pollFilter(deps, CURSOR_ROUTE, storefrontId, request.query as Record<string, unknown>);
      const page = await listPricingUpdatedVariants(deps.db.db, principal.accountId, filter);
      return { variants: page.variants, nextPageCursor: pollCursor(deps, CURSOR_ROUTE, storefrontId, page.next) };
    },
  );
}
