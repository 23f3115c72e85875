import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { registerSellerOrderActions } from './actions.js';
import { registerSellerOrderDetail } from './detail.js';
import { registerSellerOrderList } from './list.js';
import { registerSellerNewOrder } from './new-order.js';
import { registerSellerPackingSlip } from './packing-slip.js';
import { registerSellerPersonalDataActions } from './personal-data-actions.js';
import { registerSellerReturnActions } from './return-actions.js';

/** The seller's orders: the filtered list, a new order typed in, one order's page and packing slip, and the order's actions (its buyer's erasure too). */
export function registerSellerOrderPages(scope: FastifyInstance, deps: Deps): void {
  registerSellerOrderList(scope, deps);
  registerSellerNewOrder(scope, deps);
  registerSellerOrderDetail(scope, deps);
  registerSellerPackingSlip(scope, deps);
  registerSellerOrderActions(scope, deps);
  registerSellerReturnActions(scope, deps);
  registerSellerPersonalDataActions(scope, deps);
}
