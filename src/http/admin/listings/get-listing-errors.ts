import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { notFound } from '../../../domain/errors.js';
import { ATTRIBUTE_LIMIT_SUBMISSION_TYPE, ERROR_SEVERITIES, ERROR_TYPES, listingErrorReport } from '../../../domain/listings/channel-errors.js';
import { STANDARD_STATUSES } from '../../../domain/listings/variant-status.js';
import { Nullable, Timestamp } from '../../schemas/common.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { ListingParams, TAGS } from './schemas.js';

const ErrorEntry = Type.Object({
  submissionType: Type.String({ description: `the channel's submissionType; "${ATTRIBUTE_LIMIT_SUBMISSION_TYPE}" for entries the service computes` }),
  attributeIds: Type.Array(Type.String()),
  severity: Type.String({ enum: [...ERROR_SEVERITIES] }),
  type: Type.String({ enum: [...ERROR_TYPES] }),
  message: Type.String(),
  createdAt: Timestamp,
});

const ListingErrors = Type.Object({
  variants: Type.Array(
    Type.Object({
      sku: Type.String(),
      channelId: Type.String(),
      status: Type.String({ enum: [...STANDARD_STATUSES] }),
      channelStatus: Type.String(),
      listingUrl: Type.String(),
      buyable: Type.Boolean(),
      channelListingId: Type.String(),
      statusUpdatedAt: Nullable(Timestamp),
      errors: Type.Array(ErrorEntry),
    }),
  ),
});

export function registerAdminListingErrors(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/listings/:listingId/errors',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "A listing's channel status and errors",
        description:
          'Every variant of the listing with what the channel reported: its status fields and its errors per ' +
          'submissionType (v1 status reports under "v1_listing_status"). Also, computed live, one ' +
          `TYPE_TOO_MANY_VALUES entry (submissionType "${ATTRIBUTE_LIMIT_SUBMISSION_TYPE}") per attribute the polls ` +
          "leave out because it has more unique items than its specification's maxUniqueItems; one of the listing's " +
          'own productData is reported on every variant. Unknown listing or another account\'s → 404.',
        params: ListingParams,
        response: adminResponses({ 200: ListingErrors }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, listingId } = request.params;
      const report = await listingErrorReport(deps.db.db, accountId, listingId, deps.clock.now());
      if (!report) throw notFound(`listing ${listingId} not found in account ${accountId}`);
      return report;
    },
  );
}
