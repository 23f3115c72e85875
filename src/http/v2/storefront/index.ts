import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerGetStorefrontOrder } from './get-order.js';
import { registerListShippedOrders } from './list-shipped-orders.js';
import { registerListDriftSkus } from './listing/list-drift.js';
import { registerListInventoryUpdated } from './listing/list-inventory-updated.js';
import { registerListInventoryUpdatedSkus } from './listing/list-inventory-updated-skus.js';
import { registerRecordSubmissionInventory } from './listing/record-submission-inventory.js';
import { registerGetStorefrontListing } from './listing/get-listing.js';
import { registerGetStorefrontListingBySku } from './listing/get-listing-by-sku.js';
import { registerGetSkuCategory } from './listing/get-sku-category.js';
import { registerGetStorefrontVariant } from './listing/get-variant.js';
import { registerListNewListings } from './listing/list-new.js';
import { registerListPricingUpdated } from './listing/list-pricing-updated.js';
import { registerListProductDataUpdated } from './listing/list-product-data-updated.js';
import { registerCreateSubmissions } from './listing/create-submissions.js';
import { registerPutSubmission } from './listing/put-submission.js';
import { registerRecordVariantErrors } from './listing/record-variant-errors.js';
import { registerSetChannelId } from './listing/set-channel-id.js';
import { registerSetVariantStatus } from './listing/set-variant-status.js';
import { registerGetValidValues } from './listing/get-valid-values.js';
import { registerSetValidValues } from './listing/set-valid-values.js';
import { registerStorefrontCancelOrder } from './orders/cancel-order.js';
import { registerTaxonomyRoutes } from './taxonomy/index.js';
import { registerIngestionRoutes } from './ingestion/index.js';

/**
 * v2 storefront routes (document 4.7, resolutions §4) for sales-channel tokens: no scope is enforced, the
 * token must be bound to a storefront, and every route acts for that storefront only.
 */
export function registerV2StorefrontRoutes(app: App, deps: Deps): void {
  registerListShippedOrders(app, deps);
  registerGetStorefrontOrder(app, deps);
  registerStorefrontCancelOrder(app, deps);
  registerListInventoryUpdated(app, deps);
  registerListInventoryUpdatedSkus(app, deps);
  registerListDriftSkus(app, deps);
  registerRecordSubmissionInventory(app, deps);
  registerTaxonomyRoutes(app, deps);
  registerIngestionRoutes(app, deps);
  registerListProductDataUpdated(app, deps);
  registerListNewListings(app, deps);
  registerListPricingUpdated(app, deps);
  registerGetStorefrontListing(app, deps);
  registerGetStorefrontListingBySku(app, deps);
  registerGetStorefrontVariant(app, deps);
  registerGetSkuCategory(app, deps);
  registerCreateSubmissions(app, deps);
  registerPutSubmission(app, deps);
  registerRecordVariantErrors(app, deps);
  registerSetChannelId(app, deps);
  registerSetVariantStatus(app, deps);
  registerSetValidValues(app, deps);
  registerGetValidValues(app, deps);
}
