import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { registerStockPages } from './stock.js';

/** /console/inventory: stock, kits, inbound shipments and vendors. */
export function registerInventoryPages(scope: FastifyInstance, deps: Deps): void {
  registerStockPages(scope, deps);
}
