import { Type } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { MAX_SPEC_IDS_PER_READ, readSpecIds, readStorefrontValidValues } from '../../../../domain/listings/storefront-valid-values.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

const Query = Type.Object(
  {
    specIds: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.String())], { description: 'spec ids, repeated (`specIds=a&specIds=b`) or comma-separated; none: every spec with values' }),
    ),
    specId: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description: 'alias of specIds' })),
  },
  { additionalProperties: true },
);

const ValidValuesRead = Type.Object(
  {
    specIdToValidValues: Type.Record(Type.String(), Type.Object({ validValues: Type.Array(Type.String()) }), {
      description: 'the storefront\'s own values per spec id; a spec without them is absent (its own validValues apply)',
    }),
  },
  { examples: [{ specIdToValidValues: { return_policy: { validValues: ['30 days free returns', 'No returns'] } } }] },
);

export function registerGetValidValues(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/listing/valid_values',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "Read the storefront's valid values of select attributes",
        description:
          'What POST /v2/storefront/listing/valid_values set, per spec id: `{specIdToValidValues: {<specId>: ' +
          '{validValues}}}` for the `specIds` named (repeated or comma-separated; `specId` is an alias), or for every ' +
          'spec with values when none is named. A spec without storefront values is absent from the map. More than ' +
          `${MAX_SPEC_IDS_PER_READ} ids, or an id that is not a valid spec id: 400.`,
        querystring: Query,
        response: v2Responses({ 200: ValidValuesRead }, [400, 401, 403, 429]),
      },
    },
    async (request) => readStorefrontValidValues(deps.db.db, principalOf(request), readSpecIds(request.query as Record<string, unknown>)),
  );
}
