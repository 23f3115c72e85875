import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerGetListingV1 } from './get-listing.js';
import { registerListListingsV1 } from './list-listings.js';
import { registerV1ListingStatus } from './post-listing-status.js';
import { registerV1RecordInventoryDetails } from './record-inventory-details.js';

/** v1 listings (document 4.4, resolutions §3); one file per operation beside this one. */
export function registerV1ListingRoutes(app: App, deps: Deps): void {
  registerListListingsV1(app, deps);
  registerGetListingV1(app, deps);
  registerV1RecordInventoryDetails(app, deps);
  registerV1ListingStatus(app, deps);
}
