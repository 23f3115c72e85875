import type { Static } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { invalidField } from '../../../../domain/errors.js';
import { MAX_SPECS_PER_PRODUCT_TYPE, putAttributeSpec } from '../../../../domain/listings/taxonomy.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Responses } from '../../../schemas/common.js';
import { AttributeSpecBody, AttributeSpecV2, ProductTypeParams } from '../../../schemas/taxonomy.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

/** POST /v2/storefront/taxonomy/attribute_spec/{productTypeId} (resolutions §7): create only; the PUTs upsert. */
export function registerCreateAttributeSpec(app: App, deps: Deps) {
  app.post(
    '/v2/storefront/taxonomy/attribute_spec/:productTypeId',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Create an attribute spec',
        description:
          'Body {attributeSpec} with attributeSpec.attributeSpecId required. Creates the spec and answers it ' +
          '(document 2.15); a spec with that id already on the product type is a 409 ALREADY_EXISTS and is left ' +
          'as it was (PUT replaces a spec). As with the PUT, the product type is created (with empty displayName ' +
          'and description) when it does not exist yet. Fields are read as by the PUT. A new spec past the product ' +
          `type's ${MAX_SPECS_PER_PRODUCT_TYPE} is a 400 FAILED_PRECONDITION.`,
        params: ProductTypeParams,
        body: AttributeSpecBody,
        response: v2Responses({ 200: AttributeSpecV2 }, [400, 401, 403, 409, 429]),
      },
    },
    async (request) => {
      const body: Static<typeof AttributeSpecBody> = request.body;
      const bodyField = body.attributeSpec != null ? 'attributeSpec' : body.attribute_spec != null ? 'attribute_spec' : null;
      if (bodyField === null) throw invalidField('attributeSpec', 'is required');
      const input = { productTypeId: request.params.productTypeId, pathAttributeSpecId: null, attributeSpec: body[bodyField], bodyField, mode: 'create' as const };
      return withTx(deps.db.db, (tx) => putAttributeSpec(tx, principalOf(request), input, deps.clock.now()));
    },
  );
}
