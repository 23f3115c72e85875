import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { setVariantStatus } from '../../../../domain/listings/variant-status.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { Empty, VariantSkuParams, VariantStatusBody, field } from '../../../schemas/submissions.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export function registerSetVariantStatus(app: App, deps: Deps) {
  app.post(
    '/v2/storefront/listing/variant/:sku/status',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "Report a variant's status on the channel",
        description:
          'Replaces the variant\'s status fields: status (STANDARD_STATUS_UNSPECIFIED, _PUBLISHED, _UNPUBLISHED, ' +
          '_SUPPRESSED, _RETIRED; name or number), channelStatus (the channel\'s own wording), listingUrl, buyable, ' +
          'channelListingId. A field left out takes its default ("", false, STANDARD_STATUS_UNSPECIFIED). A non-empty ' +
          'channelId also sets the variant\'s channel id as the channel_id route does (an empty one leaves it). A sku ' +
          'that is not a variant of your storefront → 404. Response {}.',
        params: VariantSkuParams,
        body: VariantStatusBody,
        response: v2Responses({ 200: Empty }, [400, 401, 403, 404, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const body = request.body as Record<string, unknown>;
      // A name by now: the body schema (ProtoEnum) turned a number into its name and refused an unknown one.
      const status = request.body.status ?? 'STANDARD_STATUS_UNSPECIFIED';
      const input = {
        status,
        channelStatus: field<string>(body, 'channelStatus') ?? '',
        channelId: field<string>(body, 'channelId') ?? '',
        listingUrl: field<string>(body, 'listingUrl') ?? '',
        buyable: field<boolean>(body, 'buyable') ?? false,
        channelListingId: field<string>(body, 'channelListingId') ?? '',
      };
      await withTx(deps.db.db, (tx) =>
        setVariantStatus(tx, principal.accountId, principal.storefrontId!, request.params.sku, input, deps.clock.now()),
      );
      return {};
    },
  );
}
