import type { Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { invalidField } from '../../../../domain/errors.js';
import { MAX_SPECS_PER_PRODUCT_TYPE, putAttributeSpec } from '../../../../domain/listings/taxonomy.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { AttributeSpecBody, AttributeSpecParams, AttributeSpecV2, ProductTypeParams } from '../../../schemas/taxonomy.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

const COMMON_DESCRIPTION =
  'Upsert (a PUT replaces every field of the spec; absent fields take their empty value). Answers the attribute ' +
  'spec (document 2.15): createdAt is kept on an update, updatedAt moves. Enums by name or number; ' +
  'objectSpec and objectFieldSpecs only with TYPE_MULTI_OBJECT; maxUniqueItems >= 0 (0 = no limit): listing polls ' +
  'leave out attributes with more unique items. The product type is created (with empty displayName and ' +
  'description) when it does not exist yet, since channels often push specs first. A new spec past the ' +
  `product type's ${MAX_SPECS_PER_PRODUCT_TYPE} is a 400 FAILED_PRECONDITION.`;

/** Both PUT forms (resolutions §4): spec id in the body, or in the path (the path wins; a differing body id is a 400). */
export function registerPutAttributeSpec(app: App, deps: Deps) {
  const handle = async (request: FastifyRequest, productTypeId: string, pathAttributeSpecId: string | null) => {
    const body = request.body as Static<typeof AttributeSpecBody>;
    const bodyField = body.attributeSpec != null ? 'attributeSpec' : body.attribute_spec != null ? 'attribute_spec' : null;
    if (bodyField === null) throw invalidField('attributeSpec', 'is required');
    const input = { productTypeId, pathAttributeSpecId, attributeSpec: body[bodyField], bodyField, mode: 'upsert' as const };
    return withTx(deps.db.db, (tx) => putAttributeSpec(tx, principalOf(request), input, deps.clock.now()));
  };

  app.put(
    '/v2/storefront/taxonomy/attribute_spec/:productTypeId',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Create or replace an attribute spec (id in the body)',
        description: `Body {attributeSpec} with attributeSpec.attributeSpecId required. ${COMMON_DESCRIPTION}`,
        params: ProductTypeParams,
        body: AttributeSpecBody,
        response: v2Responses({ 200: AttributeSpecV2 }, [400, 401, 403, 429]),
      },
    },
    async (request) => handle(request, request.params.productTypeId, null),
  );

  app.put(
    '/v2/storefront/taxonomy/attribute_spec/:productTypeId/:attributeSpecId',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Create or replace an attribute spec (id in the path)',
        description:
          'Body {attributeSpec}; the attributeSpecId of the path wins, a different non-empty ' +
          `attributeSpec.attributeSpecId is a 400. ${COMMON_DESCRIPTION}`,
        params: AttributeSpecParams,
        body: AttributeSpecBody,
        response: v2Responses({ 200: AttributeSpecV2 }, [400, 401, 403, 429]),
      },
    },
    async (request) => handle(request, request.params.productTypeId, request.params.attributeSpecId),
  );
}
