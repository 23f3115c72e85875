import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerApplyIngestion } from './apply-ingestion.js';
import { registerDiscardIngestion } from './discard-ingestion.js';
import { registerGetIngestion } from './get-ingestion.js';
import { registerListIngestions } from './list-ingestions.js';

/** The seller's view of storefront ingestions (document 3.8) under /admin/accounts/{accountId}/ingestions. */
export function registerAdminIngestionRoutes(app: App, deps: Deps): void {
  registerListIngestions(app, deps);
  registerGetIngestion(app, deps);
  registerApplyIngestion(app, deps);
  registerDiscardIngestion(app, deps);
}
