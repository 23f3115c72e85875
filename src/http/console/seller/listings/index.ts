import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { registerIngestionPages } from './ingestions.js';
import { registerListingEdit } from './listing-edit.js';
import { registerListingPage } from './listing-page.js';
import { registerListingsList } from './list.js';

/** Listings per storefront, one listing with its edit form, and ingestion plans to review and apply. */
export function registerSellerListings(scope: FastifyInstance, deps: Deps): void {
  registerListingsList(scope, deps);
  registerIngestionPages(scope, deps);
  registerListingPage(scope, deps);
  registerListingEdit(scope, deps);
}
