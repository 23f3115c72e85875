import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import {
  InventoryItemRejected,
  applyInventoryItemV1,
  loadInventoryUpdateContext,
  type InventoryItemResultV1,
} from '../../../domain/inventory/v1-update.js';
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
          'changes nothing. Otherwise every item runs in its own transaction and gets its own result: an unknown ' +
          'warehouse, one whose stock another integration controls, one outside an inventory:self token\'s ' +
          'warehouses, or a delta that would take the available quantity below zero fails that item only and ' +
          'changes nothing for it. Unknown SKUs are created with the identifiers given. `errorMessage` is "" on ' +
          'success.',
        body: InventoryUpdateV1,
        response: v1Responses({ 200: InventoryUpdateResultV1 }, [400, 401, 403, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const plan = planInventoryUpdate(request.body);
      const db = deps.db.db;
      const context = await loadInventoryUpdateContext(db, principal);
      const results: InventoryItemResultV1[] = [];
      for (const item of plan.items) {
        try {
          const now = deps.clock.now();
          results.push(await withTx(db, (tx) => applyInventoryItemV1(tx, principal, context, item, now, plan.asOf)));
        } catch (error) {
          if (error instanceof InventoryItemRejected) {
            results.push(error.result);
            continue;
          }
          // The earlier items are committed: answering 500 now would invite a retry of the whole batch and
          // apply their deltas twice, so this item alone reports the failure.
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
