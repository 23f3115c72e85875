import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { isDatabaseUnavailable } from '../../../db/unavailable.js';
import {
  applyInventoryItemsV1,
  holdStockOfItems,
  finishInventoryBatch,
  loadInventoryUpdateContext,
  newInventoryBatch,
  type InventoryItemResultV1,
} from '../../../domain/inventory/v1-update.js';
import { backorderPort } from '../../../domain/fulfillment/backorder-port.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { InventoryUpdateResultV1, InventoryUpdateV1 } from '../../schemas/inventory-v1.js';
import { planInventoryUpdate } from './update-body.js';
import { V1_INVENTORY_ROUTE_CONFIG } from './route-config.js';

export function registerUpdateInventory(app: App, deps: Deps) {
  app.post(
    '/v1/inventory',
    {
      config: V1_INVENTORY_ROUTE_CONFIG,
      schema: {
        tags: ['v1 inventory'],
        summary: 'Update inventory (up to 50 items)',
        description:
          'Two body shapes are accepted. Document shape: `{pulled_ts, warehouseName, items:[{SKU, standardProductId, ' +
          'standardProductIdType, …}]}`, where `warehouseName` is the warehouse\'s name in the account or the caller\'s ' +
          'own `warehouseUniqueId`. Public shape: `{validAsOf, products:[{SKU, warehouseId, binLocation, …}]}`. ' +
          '1 to 50 items. Each item carries exactly one of `quantity` (sets available), `delta_quantity` (adds, may be ' +
          'negative) or `onhand_quantity` (sets on-hand; available = on-hand − units reserved by pending orders). ' +
          'For absolute updates, units of orders routed after `pulled_ts`/`validAsOf` are subtracted too. ' +
          'Timestamps need a time zone.\n\n' +
          'A malformed request (types, identifier type, item count, not exactly one quantity field) is a 400 and ' +
          'changes nothing. Otherwise every item gets its own result, as if the items ran one after another (items ' +
          'naming the same SKU and warehouse apply in the order given), and a failed item changes nothing (the call ' +
          'is one transaction; if the database is lost, the whole call fails and changes nothing, so it can be ' +
          'retried): an unknown ' +
          'warehouse, one whose stock another integration controls, one outside an inventory:self token\'s ' +
          'warehouses, a delta that would take the available quantity below zero, or a change that would take a ' +
          'count past 2147483647 units fails that item only and changes nothing for it. Unknown SKUs are created with the identifiers given. `errorMessage` is "" on ' +
          'success.\n\nStock that an item leaves available fills the orders backordered in that warehouse (oldest order ' +
          'first) and routes waiting lines whose SKU it is (unknown SKU, no warehouse), in the same transaction.',
        body: InventoryUpdateV1,
        response: v1Responses({ 200: InventoryUpdateResultV1 }, [400, 401, 403, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const plan = planInventoryUpdate(request.body);
      const db = deps.db.db;
      const context = await loadInventoryUpdateContext(db, principal);
      // One transaction for the whole call, its items applied set-based with an outcome each (v1-update.ts).
      const applyItems = (items: typeof plan.items) =>
        withTx(db, async (tx) => {
          // The changed products' inventory timestamps and listing stock copies move once, after the items, and
          // the orders waiting for the stock get it then (one check for the call when none waits).
          const batch = newInventoryBatch();
          await holdStockOfItems(tx, principal, context, items);
          const now = deps.clock.now();
          const outcomes = await applyInventoryItemsV1(tx, principal, context, items, now, plan.asOf, batch);
          await finishInventoryBatch(tx, principal.accountId, batch, now, backorderPort);
          return outcomes.map((o) => o.result);
        });
      try {
        return { results: await applyItems(plan.items) };
      } catch (error) {
        // A lost database fails the call (503) with nothing applied, so it can be sent again as it was.
        if (isDatabaseUnavailable(error)) throw error;
        request.log.error({ err: error }, 'inventory update failed as a batch; applying its items one by one');
      }
      // The database refused something no check foresaw: each item runs on its own, so the one at fault answers
      // an internal error and the others keep their outcomes.
      const results: InventoryItemResultV1[] = [];
      for (const item of plan.items) {
        try {
          results.push(...(await applyItems([item])));
        } catch (error) {
          if (isDatabaseUnavailable(error)) throw error;
          request.log.error({ err: error, sku: item.sku }, 'inventory item failed');
          results.push({
            SKU: item.sku,
            warehouseId: 'id' in item.warehouse ? item.warehouse.id : null,
            success: false,
            errorMessage: `internal error; this item was not applied (referenceId ${request.id})`,
          });
        }
      }
      return { results };
    },
  );
}
