import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { attributeSpecsOfferedToSeller } from '../../../domain/listings/seller-attribute-specs.js';
import { AttributeSpecV2 } from '../../schemas/taxonomy.js';
import { ADMIN_ROUTE_CONFIG, adminResponses, Id } from '../schemas.js';
import { TAGS } from './schemas.js';

const Params = Type.Object({
  accountId: Id('account id'),
  storefrontId: Id('storefront id (the SALES_CHANNEL installation id)'),
  productTypeId: Type.String({ minLength: 1, description: 'the channel\'s product type (URL-encode it)' }),
});

const Offered = Type.Object({
  ...AttributeSpecV2.properties,
  storefrontValidValues: Type.Boolean({ description: 'true when validValues are the storefront\'s own (set by the channel) rather than the spec\'s' }),
});

export function registerAdminAttributeSpecs(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/storefronts/:storefrontId/attribute-specs/:productTypeId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'The attribute specs a seller is offered for a product type',
        description:
          'The channel\'s attribute specs of the product type (document 2.15), ordered by attributeSpecId, as the ' +
          'seller should be offered them: a TYPE_SELECT / TYPE_MULTI_SELECT spec for which the channel set ' +
          'storefront valid values shows those instead of its own (`storefrontValidValues: true`). Seller edits are ' +
          'checked against the same values. Unknown storefront or product type: 404.',
        params: Params,
        response: adminResponses({ 200: Type.Object({ attributeSpecs: Type.Array(Offered) }) }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, storefrontId, productTypeId } = request.params;
      return { attributeSpecs: await attributeSpecsOfferedToSeller(deps.db.db, accountId, storefrontId, productTypeId) };
    },
  );
}
