import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { invalidField } from '../../../../domain/errors.js';
import { replaceSubmissions, type SubmissionInput } from '../../../../domain/listings/submissions.js';
import { principalOf } from '../../../plugins/auth.js';
import { optionalTimestampParam } from '../../../params.js';
import { v2Responses } from '../../../schemas/common.js';
import { CreateSubmissionsBody, MAX_SUBMISSIONS, SubmissionsResponse, field, type SubmissionEntryInput } from '../../../schemas/submissions.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

/** One wire entry → the domain input; a bad entry fails the whole request (nothing is stored). */
function readEntry(raw: SubmissionEntryInput, i: number): SubmissionInput {
  const e = raw as Record<string, unknown>;
  const at = (name: string) => `submissions[${i}].${name}`;
  const required = (name: string) => {
    const value = field<string>(e, name);
    if (value === undefined || value === '') throw invalidField(at(name), 'is required (non-empty)');
    return value;
  };
  return {
    sku: required('sku'),
    type: required('type'),
    contentSent: field<string>(e, 'contentSent') ?? '',
    contentReceived: field<string>(e, 'contentReceived') ?? '',
    metadata: field<Record<string, string>>(e, 'metadata') ?? {},
    successful: field<boolean>(e, 'successful') ?? false,
    submittedAttributeVersionIds: field<string[]>(e, 'submittedAttributeVersionIds') ?? [],
    preparedAt: optionalTimestampParam(at('preparedAt'), field<string>(e, 'preparedAt')),
    submittedAt: optionalTimestampParam(at('submittedAt'), field<string>(e, 'submittedAt')),
    acknowledgedAt: optionalTimestampParam(at('acknowledgedAt'), field<string>(e, 'acknowledgedAt')),
  };
}

export function registerCreateSubmissions(app: App, deps: Deps) {
  app.post(
    '/v2/storefront/listing/submission',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Record submissions sent to the channel (replace by type and sku)',
        description:
          `1 to ${MAX_SUBMISSIONS} submissions (document 2.13). For every (type, sku) named in the body, your storefront's ` +
          'earlier submissions with that type and sku are replaced by the entries given (several entries for one pair are ' +
          'all kept). `type` and `sku` are required and non-empty; the sku may be any SKU, a variant SKU or a listing group ' +
          'SKU. `submissionId` is assigned by the service (a value sent is ignored). Timestamps are RFC 3339 with a time ' +
          'zone. Each attribute version named in `submittedAttributeVersionIds` that belongs to your storefront\'s listings ' +
          'gets submittedAt = the entry\'s submittedAt (else now); other ids are kept on the submission and change nothing. ' +
          'A bad entry fails the whole request with INVALID_ARGUMENT naming it, and nothing is stored. Response: the ' +
          'submissions as stored, in body order.',
        body: CreateSubmissionsBody,
        response: v2Responses({ 200: SubmissionsResponse }, [400, 401, 403, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const entries = request.body.submissions.map(readEntry);
      const submissions = await withTx(deps.db.db, (tx) =>
        replaceSubmissions(tx, principal.accountId, principal.storefrontId!, entries, deps.clock.now()),
      );
      return { submissions };
    },
  );
}
