import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerAdminAttributeSpecs } from './attribute-specs.js';
import { registerAdminCreateListing } from './create-listing.js';
import { registerAdminDeleteListing } from './delete-listing.js';
import { registerAdminGetListing } from './get-listing.js';
import { registerAdminListListings } from './list-listings.js';
import { registerAdminListingErrors } from './get-listing-errors.js';
import { registerAdminPatchListing } from './patch-listing.js';
import { registerAdminStorefrontSettings } from './storefront-settings.js';

/** The seller's listing actions that feed the storefront polls (DESIGN.md "Operator API"). */
export function registerAdminListingRoutes(app: App, deps: Deps): void {
  registerAdminCreateListing(app, deps);
  registerAdminListListings(app, deps);
  registerAdminGetListing(app, deps);
  registerAdminPatchListing(app, deps);
  registerAdminDeleteListing(app, deps);
  registerAdminStorefrontSettings(app, deps);
  registerAdminListingErrors(app, deps);
  registerAdminAttributeSpecs(app, deps);
}
