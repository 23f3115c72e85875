import type { BackorderPort } from '../inventory/backorder-port.js';
import { fillWaitingOrders } from '../orders/fill-backorders.js';
import { fulfillmentPort } from './port.js';

/**
 * The orders waiting for stock, as the stock writers see them (src/domain/inventory/backorder-port.ts),
 * handed to them by the edges. Wired here because filling can route lines that were waiting for a place
 * (route-unrouted-lines.ts), and their new routes become fulfillment work: the orders area needs the
 * fulfillment port for that, and only this area (which builds on orders) can give it.
 */
export const backorderPort: BackorderPort = {
  stockAvailable: async (tx, accountId, keys, now) => {
    await fillWaitingOrders(tx, accountId, keys, now, fulfillmentPort);
  },
};
