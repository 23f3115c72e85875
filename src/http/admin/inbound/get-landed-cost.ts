import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { getAccount } from '../../../domain/accounts/accounts.js';
import { getLandedCost } from '../../../domain/inbound/landed-cost.js';
import { Nullable, Sku } from '../../schemas/common.js';
import { ADMIN_ROUTE_CONFIG, Id, adminResponses } from '../schemas.js';
import { INBOUND_ADMIN_TAGS } from './tags.js';

const Params = Type.Object({ accountId: Id('account id'), sku: Sku({ description: 'product SKU (exact)', examples: ['MUG-01'] }) });

const LandedCost = Type.Object(
  {
    sku: Type.String(),
    landedCost: Nullable(Type.String({ description: 'weighted-average landed unit cost, 4 decimals at most; null before the first costed receipt' })),
    unitsReceived: Type.Integer({ description: 'costed units received on inbound shipments (the weights of the average)' }),
    totalCost: Type.String({ description: 'what those units cost: vendor unit costs plus their shipping shares' }),
  },
  { examples: [{ sku: 'MUG-01', landedCost: '2.9', unitsReceived: 100, totalCost: '290' }] },
);

export function registerAdminGetLandedCost(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/products/:sku/landed-cost',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: INBOUND_ADMIN_TAGS,
        summary: 'Landed cost of a product (seller)',
        description:
          'What the units received on inbound shipments cost the seller: `landedCost` = `totalCost` / ' +
          '`unitsReceived` rounded half-up to 4 decimals, where each receipt adds its units × their unit cost ' +
          "(the receipt's, else the shipment line's) plus their share of the shipment's shipping cost (allocated by " +
          'units). Units received without any unit cost are left out. Decimals are exact strings. The same ' +
          '`landed_cost` is the read-only product field of GET /admin/accounts/{accountId}/products/{sku} and of ' +
          'Products exports. An unknown account or SKU is a 404.',
        params: Params,
        response: adminResponses({ 200: LandedCost }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, sku } = request.params;
      await getAccount(deps.db.db, accountId);
      return getLandedCost(deps.db.db, accountId, sku);
    },
  );
}
