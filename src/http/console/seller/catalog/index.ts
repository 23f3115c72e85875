import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { registerCatalogList } from './list.js';
import { registerCatalogNewProduct } from './new-product.js';
import { registerCatalogProductPage } from './product-page.js';

/** The seller's catalog: the product list with its search, a new product, and a product's page and edit form. */
export function registerCatalogPages(scope: FastifyInstance, deps: Deps): void {
  registerCatalogList(scope, deps);
  registerCatalogNewProduct(scope, deps);
  registerCatalogProductPage(scope, deps);
}
