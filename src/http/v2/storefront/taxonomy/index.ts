import type { Deps } from '../../../../deps.js';
import type { App } from '../../../types.js';
import { registerCreateAttributeSpec } from './create-attribute-spec.js';
import { registerDeleteAttributeSpec } from './delete-attribute-spec.js';
import { registerDeleteProductType } from './delete-product-type.js';
import { registerGetAttributeSpec } from './get-attribute-spec.js';
import { registerListAttributeSpecs } from './list-attribute-specs.js';
import { registerListProductTypes } from './list-product-types.js';
import { registerPutAttributeSpec } from './put-attribute-spec.js';
import { registerUpsertProductType } from './upsert-product-type.js';

/** Storefront taxonomy (document 2.15, 4.7; resolutions §4): product types and their attribute specs. */
export function registerTaxonomyRoutes(app: App, deps: Deps): void {
  registerListProductTypes(app, deps);
  registerUpsertProductType(app, deps);
  registerDeleteProductType(app, deps);
  registerListAttributeSpecs(app, deps);
  registerGetAttributeSpec(app, deps);
  registerCreateAttributeSpec(app, deps);
  registerPutAttributeSpec(app, deps);
  registerDeleteAttributeSpec(app, deps);
}
