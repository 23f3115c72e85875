import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { MAX_CHANNEL_ERRORS, readChannelErrors, recordVariantErrors } from '../../../../domain/listings/channel-errors.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { Empty, VariantErrorsBody, VariantSkuParams, field, type ChannelErrorInputWire } from '../../../schemas/submissions.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export function registerRecordVariantErrors(app: App, deps: Deps) {
  app.post(
    '/v2/storefront/listing/variant/:sku/errors',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "Report the channel's errors for a variant",
        description:
          'Replaces the variant\'s errors of this `submissionType` (document 2.14) by `errors` (0 to ' +
          `${MAX_CHANNEL_ERRORS}; empty or absent clears them); errors of other submission types stay. Entry: ` +
          '{attributeIds, severity (SEVERITY_UNSPECIFIED, _NOTICE, _WARNING, _ERROR), type (TYPE_UNSPECIFIED, ' +
          '_MISSING_VALUE, _INVALID_VALUE, _RESTRICTED_VALUE, _OTHER, _TOO_MANY_VALUES), message}; enums by name or ' +
          'number. message is required for TYPE_OTHER and TYPE_TOO_MANY_VALUES (7.3 rule 5). A bad entry fails the ' +
          'request with INVALID_ARGUMENT naming errors[i].<field> and nothing is stored. A sku that is not a variant ' +
          'of your storefront → 404. Response {}.',
        params: VariantSkuParams,
        body: VariantErrorsBody,
        response: v2Responses({ 200: Empty }, [400, 401, 403, 404, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const body = request.body as Record<string, unknown>;
      const submissionType = field<string>(body, 'submissionType') ?? '';
      const errors = readChannelErrors(
        'errors',
        (field<ChannelErrorInputWire[]>(body, 'errors') ?? []).map((e) => {
          const entry = e as Record<string, unknown>;
          return {
            attributeIds: field<string[]>(entry, 'attributeIds') ?? null,
            // Names by now: the body schema (ProtoEnum) turned numbers into names and refused unknown ones.
            severity: e.severity,
            type: e.type,
            message: field<string>(entry, 'message') ?? null,
          };
        }),
      );
      await withTx(deps.db.db, (tx) =>
        recordVariantErrors(tx, principal.accountId, principal.storefrontId!, request.params.sku, submissionType, errors, deps.clock.now()),
      );
      return {};
    },
  );
}
