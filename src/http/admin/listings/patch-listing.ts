import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { notFound } from '../../../domain/errors.js';
import { patchListingWithStock } from '../../../domain/inventory/listing-writes.js';
import { parseListingPatch } from '../../../domain/listings/listing-input.js';
import { loadListingViews } from '../../../domain/listings/view.js';
import { ListingProductDataInput, ListingV2, VariantInputSchema } from '../../schemas/listings.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { ListingParams, TAGS } from './schemas.js';

const RemoveIds = Type.Optional(Type.Array(Type.String(), { description: 'attribute ids to remove from the group' }));

export const PatchListingBody = Type.Object(
  {
    productData: Type.Optional(Type.Object({ ...ListingProductDataInput.properties, removeAttributeIds: RemoveIds }, { additionalProperties: true })),
    variants: Type.Optional(Type.Array(VariantInputSchema, { maxItems: 1000 })),
  },
  {
    additionalProperties: true,
    examples: [
      {
        productData: { attributes: [{ id: 'title', textValue: 'Blue mug, 350 ml' }] },
        variants: [{ sku: 'MUG-BLUE', pricing: { attributes: [{ id: 'price', moneyValue: { amount: '11.00', currencyCode: 'USD' } }] }, inventory: { enabled: true } }],
      },
    ],
  },
);

export function registerAdminPatchListing(app: App, deps: Deps) {
  app.patch(
    '/admin/accounts/:accountId/listings/:listingId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Edit a listing (seller)',
        description:
          'An attribute value given replaces the one with the same id (a new versionId only when the value differs); ' +
          '`removeAttributeIds` in a group removes values. `enabled` flags switch what the storefront polls return: ' +
          'productData.enabled (listing or variant) and inventory.enabled per variant. Product-data changes move the ' +
          'listing in `product_data/updated`; price and sale changes move the variant in `variant/pricing/updated`; ' +
          'enabling or disabling inventory moves it in `variant/inventory/updated`. Settings given replace the ' +
          "variant's own settings. A variant SKU the listing does not have yet is added to it. productData's " +
          'standaloneVariants, baseListingSku and retireBaseParent are product data too (defaults false, "", false). ' +
          'Attribute values given for a select spec of the listing\'s product type (after this edit) must be among ' +
          'its valid values, the storefront\'s own when the channel set some (else 400 naming the field).',
        params: ListingParams,
        body: PatchListingBody,
        response: adminResponses({ 200: ListingV2 }, [400, 401, 404, 409], 'an added variant SKU is already on another listing of the storefront'),
      },
    },
    async (request) => {
      const { accountId, listingId } = request.params;
      const patch = parseListingPatch(request.body);
      const now = deps.clock.now();
      await withTx(deps.db.db, async (tx) => {
        await patchListingWithStock(tx, accountId, listingId, patch, now, { checkSelectValues: true });
      });
      const [view] = await loadListingViews(deps.db.db, accountId, [listingId], { forPoll: false });
      if (!view) throw notFound(`listing ${listingId} not found in this account`);
      return view;
    },
  );
}
