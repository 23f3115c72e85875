import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { updateLatestSubmission } from '../../../../domain/listings/submissions.js';
import { principalOf } from '../../../plugins/auth.js';
import { optionalTimestampParam } from '../../../params.js';
import { v2Responses } from '../../../schemas/common.js';
import { Submission, SubmissionKeyParams, UpdateSubmissionBody, field } from '../../../schemas/submissions.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export function registerPutSubmission(app: App, deps: Deps) {
  app.put(
    '/v2/storefront/listing/submission/:type/:sku',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Update the latest submission of a type and sku',
        description:
          'Updates your storefront\'s latest submission (the one recorded last) with this type and sku; none → 404. ' +
          '`contentReceived` and `metadata` replace the stored values when sent (metadata as a whole map). `changedAt` ' +
          '(RFC 3339 with a zone; default now) is when the status changed. Status (name or number): STATUS_SUBMITTED ' +
          'sets submittedAt = changedAt if the submission had none; STATUS_ACCEPTED sets acknowledgedAt = changedAt and ' +
          'successful = true; STATUS_REJECTED sets successful = false; STATUS_UNSPECIFIED or absent changes neither. ' +
          'Response: the submission.',
        params: SubmissionKeyParams,
        body: UpdateSubmissionBody,
        response: v2Responses({ 200: Submission }, [400, 401, 403, 404, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const body = request.body as Record<string, unknown>;
      // A name by now: the body schema (ProtoEnum) turned a number into its name and refused an unknown one.
      const status = request.body.status ?? 'STATUS_UNSPECIFIED';
      const update = {
        contentReceived: field<string>(body, 'contentReceived') ?? null,
        metadata: field<Record<string, string>>(body, 'metadata') ?? null,
        changedAt: optionalTimestampParam('changedAt', field<string>(body, 'changedAt')),
        status,
      };
      const { type, sku } = request.params;
      return withTx(deps.db.db, (tx) =>
        updateLatestSubmission(tx, principal.accountId, principal.storefrontId!, type, sku, update, deps.clock.now()),
      );
    },
  );
}
