import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { refreshVariantStock } from '../../../domain/inventory/variant-stock-sync.js';
import { parseListingInput } from '../../../domain/listings/listing-input.js';
import { loadListingViews } from '../../../domain/listings/view.js';
import { createListing } from '../../../domain/listings/write.js';
import { ListingProductDataInput, ListingV2, VariantInputSchema } from '../../schemas/listings.js';
import { Sku } from '../../schemas/common.js';
import { AccountParams, ADMIN_ROUTE_CONFIG, adminResponses, Id } from '../schemas.js';
import { TAGS } from './schemas.js';

const Body = Type.Object(
  {
    storefrontId: Id('the storefront (SALES_CHANNEL installation) the listing is for'),
    sku: Sku({ description: 'group SKU of the whole listing' }),
    productData: Type.Optional(ListingProductDataInput),
    variants: Type.Array(VariantInputSchema, { minItems: 1, maxItems: 1000 }),
  },
  {
    additionalProperties: true,
    examples: [
      {
        storefrontId: 3,
        sku: 'MUG-GROUP',
        productData: { categoryId: 'kitchen', attributes: [{ id: 'title', textValue: 'Mug' }] },
        variants: [{ sku: 'MUG-BLUE', productData: { attributes: [{ id: 'color', textValue: 'blue' }] }, pricing: { attributes: [{ id: 'price', moneyValue: { amount: '12.50', currencyCode: 'USD' } }] } }],
      },
    ],
  },
);

export function registerAdminCreateListing(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/listings',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Create a listing on a storefront (seller)',
        description:
          'A listing groups variants (catalog SKUs; unknown SKUs are added to the catalog) under a group SKU on one ' +
          'storefront. Every attribute value gets a versionId. The new listing appears in the storefront\'s ' +
          '`listing/new` poll until one of its variants has a channel id, then in `product_data/updated`. A group SKU ' +
          'or variant SKU already on the storefront is a 409. An attribute whose spec (the listing\'s product type, ' +
          'attribute id = attributeSpecId) is TYPE_SELECT or TYPE_MULTI_SELECT with valid values must use one of them: ' +
          'the storefront\'s own valid values when the channel set some, else the spec\'s (else 400 naming the field). ' +
          'Answers the listing in the v2 shape.',
        params: AccountParams,
        body: Body,
        response: adminResponses({ 201: ListingV2 }, [400, 401, 404, 409], 'the listing SKU or a variant SKU is already on this storefront'),
      },
    },
    async (request, reply) => {
      const { accountId } = request.params;
      const input = parseListingInput(request.body);
      const now = deps.clock.now();
      const listingId = await withTx(deps.db.db, async (tx) => {
        const created = await createListing(tx, accountId, request.body.storefrontId, input, now, { checkSelectValues: true });
        await refreshVariantStock(tx, accountId, created.productIds, now);
        return created.listingId;
      });
      const [view] = await loadListingViews(deps.db.db, accountId, [listingId], { forPoll: false });
      return reply.code(201).send(view);
    },
  );
}
