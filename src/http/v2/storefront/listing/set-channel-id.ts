import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { setVariantChannelId } from '../../../../domain/listings/variant-status.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { ChannelIdBody, Empty, VariantSkuParams, field } from '../../../schemas/submissions.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export function registerSetChannelId(app: App, deps: Deps) {
  app.post(
    '/v2/storefront/listing/variant/:sku/channel_id',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "Set a variant's channel id",
        description:
          'Records the channel\'s own id of your variant. An empty `channelId` (or none: proto3 clients leave empty ' +
          'strings out) clears it. While any variant of a listing has a channel id the listing is polled by ' +
          'product_data/updated, otherwise by listing/new; setting it does not itself put the listing in either poll ' +
          '(it is not a product-data change). A sku that is not a variant of your storefront → 404. Response {}.',
        params: VariantSkuParams,
        body: ChannelIdBody,
        response: v2Responses({ 200: Empty }, [400, 401, 403, 404, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const channelId = field<string>(request.body as Record<string, unknown>, 'channelId') ?? '';
      await withTx(deps.db.db, (tx) =>
        setVariantChannelId(tx, principal.accountId, principal.storefrontId!, request.params.sku, channelId, deps.clock.now()),
      );
      return {};
    },
  );
}
