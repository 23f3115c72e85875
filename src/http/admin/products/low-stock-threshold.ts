import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { getAccount } from '../../../domain/accounts/accounts.js';
import { LOW_STOCK_MAX, getLowStockThreshold, setLowStockThreshold } from '../../../domain/inventory/low-stock.js';
import { Sku } from '../../schemas/common.js';
import { ADMIN_ROUTE_CONFIG, Id, adminResponses } from '../schemas.js';

const Params = Type.Object({ accountId: Id('account id'), sku: Sku({ description: 'product SKU (exact)', examples: ['MUG-01'] }) });

const Threshold = Type.Union([Type.Integer({ minimum: 0, maximum: LOW_STOCK_MAX }), Type.Null()], {
  description: 'units available across the sellable warehouses (all but channel-fulfilled ones) at or below which the SKU is low; null: no alert',
});

const LowStockThreshold = Type.Object({ sku: Type.String(), lowStockThreshold: Threshold }, { examples: [{ sku: 'MUG-01', lowStockThreshold: 5 }] });

/** The body of the PUT (also the console's low-stock alert form). */
export const LowStockThresholdBody = Type.Object({ lowStockThreshold: Threshold }, { additionalProperties: false, examples: [{ lowStockThreshold: 5 }] });

const RULES =
  "The seller's low-stock alert for a SKU (the console's Stock and Low stock pages): a whole number from 0 to 1,000,000, or null for none (the default).";

/** The seller's low-stock alert per SKU, as the operator API reads and sets it. */
export function registerAdminLowStockThreshold(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/products/:sku/low-stock-threshold',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: ['admin'],
        summary: "Read a product's low-stock alert (seller)",
        description: RULES,
        params: Params,
        response: adminResponses({ 200: LowStockThreshold }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, sku } = request.params;
      await getAccount(deps.db.db, accountId);
      return { sku, lowStockThreshold: await getLowStockThreshold(deps.db.db, accountId, sku) };
    },
  );
  app.put(
    '/admin/accounts/:accountId/products/:sku/low-stock-threshold',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: ['admin'],
        summary: "Set a product's low-stock alert (seller)",
        description: RULES,
        params: Params,
        body: LowStockThresholdBody,
        response: adminResponses({ 200: LowStockThreshold }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, sku } = request.params;
      const threshold = request.body.lowStockThreshold;
      await withTx(deps.db.db, async (tx) => {
        await getAccount(tx, accountId);
        await setLowStockThreshold(tx, accountId, sku, threshold);
      });
      return { sku, lowStockThreshold: threshold };
    },
  );
}
