import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { registerInboundDetailPages } from './inbound-detail.js';
import { registerInboundListPages } from './inbound-list.js';
import { registerKitPages } from './kits.js';
import { registerLowStockPages } from './low-stock.js';
import { registerStockPages } from './stock.js';
import { registerVendorPages } from './vendors.js';

/** /console/inventory: stock, low stock, kits, inbound shipments and vendors. */
export function registerInventoryPages(scope: FastifyInstance, deps: Deps): void {
  registerStockPages(scope, deps);
  registerLowStockPages(scope, deps);
  registerKitPages(scope, deps);
  registerInboundListPages(scope, deps);
  registerInboundDetailPages(scope, deps);
  registerVendorPages(scope, deps);
}
