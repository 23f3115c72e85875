import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerAdminGetProduct } from './get-product.js';
import { registerAdminLowStockThreshold } from './low-stock-threshold.js';

/** The seller's catalog as the operator API reads it. */
export function registerAdminProductRoutes(app: App, deps: Deps): void {
  registerAdminGetProduct(app, deps);
  registerAdminLowStockThreshold(app, deps);
}
