import { Type } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { getStorefrontValidValues, readSpecId } from '../../../../domain/listings/storefront-valid-values.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

const Query = Type.Object(
  {
    specId: Type.Optional(Type.String({ description: 'required: the attribute spec id' })),
    spec_id: Type.Optional(Type.String({ description: 'snake_case alias of specId' })),
  },
  { additionalProperties: true },
);

export function registerGetValidValues(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/listing/valid_values',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Read the storefront\'s valid values of a select attribute',
        description:
          'What POST /v2/storefront/listing/valid_values set for `specId`: `{specId, validValues}`, `validValues` ' +
          '[] when none are set (the spec\'s own apply). Without specId: 400. A spec id with neither values nor a spec ' +
          'on your product types: 404.',
        querystring: Query,
        response: v2Responses({ 200: Type.Object({ specId: Type.String(), validValues: Type.Array(Type.String()) }) }, [400, 401, 403, 404, 429]),
      },
    },
    async (request) => getStorefrontValidValues(deps.db.db, principalOf(request), readSpecId(request.query as Record<string, unknown>)),
  );
}
