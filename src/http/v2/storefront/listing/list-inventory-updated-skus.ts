import { Type } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { listInventoryUpdatedSkus } from '../../../../domain/listings/inventory-polls.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';
import { pollCursor, pollFilter, PollQuery } from './poll-params.js';
import { DriftListingV2 } from './list-drift.js';

const CURSOR_ROUTE = 'GET /v2/storefront/listing/variant/inventory/updated/skus';

export function registerListInventoryUpdatedSkus(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/listing/variant/inventory/updated/skus',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Poll SKUs of variants whose inventory changed',
        description:
          'The document\'s ListSkusWithUpdatedInventory: the same variants, order and paging as ' +
          'GET /v2/storefront/listing/variant/inventory/updated, as SKUs only. `driftListings` is always `[]` ' +
          '(the response shares its message with the drift route, which alone fills it; resolutions §7).',
        querystring: PollQuery,
        response: v2Responses(
          {
            200: Type.Object({
              skus: Type.Array(Type.String()),
              nextPageCursor: Type.String({ description: '"" on the last page' }),
              driftListings: Type.Array(DriftListingV2, { maxItems: 0, description: 'always empty here; filled by the drift route only' }),
            }),
          },
          [400, 401, 403, 429],
        ),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const storefrontId = principal.storefrontId!;
      const filter = pollFilter(deps, CURSOR_ROUTE, storefrontId, request.query as Record<string, unknown>);
      const page = await listInventoryUpdatedSkus(deps.db.db, principal.accountId, filter);
      return { skus: page.skus, nextPageCursor: pollCursor(deps, CURSOR_ROUTE, storefrontId, page.next), driftListings: [] };
    },
  );
}
