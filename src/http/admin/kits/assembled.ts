import { Type, type Static } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { setAssembledQuantity } from '../../../domain/inventory/assembled-kits.js';
import { backorderPort } from '../../../domain/fulfillment/backorder-port.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { Assembled, AssembledParams, TAGS } from './schemas.js';

const Body = Type.Object(
  { quantity: Type.Integer({ minimum: 0, maximum: 1000000000, description: 'assembled kits in the warehouse' }) },
  { additionalProperties: false, examples: [{ quantity: 5 }] },
);

export function registerSetAssembledQuantity(app: App, deps: Deps) {
  app.put(
    '/admin/accounts/:accountId/inventory/:sku/:warehouseId/assembled',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Set the assembled kits of a kit in a warehouse',
        description:
          "The seller's count of assembled kits. A kit's own stock IS its assembled kits: the count sets " +
          'assembledQuantity and on-hand (available = on-hand − reserved), and orders route assembled kits first. ' +
          'A product without components is a 400; a count below the assembled kits open orders hold there is a 409. ' +
          'Shipments of assembled kits lower the count; v1 and v2 inventory updates leave it alone. Kits the count ' +
          'leaves available fill the orders backordered for the kit in that warehouse (oldest order first); the answer ' +
          'shows the counts after that.',
        params: AssembledParams,
        body: Body,
        response: adminResponses({ 200: Assembled }, [400, 401, 404, 409], 'open orders hold more assembled kits than the count'),
      },
    },
    async (request) => {
      const { accountId, sku, warehouseId } = request.params;
      const body: Static<typeof Body> = request.body;
      const now = deps.clock.now();
      return withTx(deps.db.db, (tx) => setAssembledQuantity(tx, accountId, sku, warehouseId, body.quantity, now, backorderPort));
    },
  );
}
