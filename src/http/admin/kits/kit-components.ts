import type { Static } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { getKit, setKitComponents } from '../../../domain/catalog/kits.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { Kit, KitComponentsBody as Body, KitParams, TAGS } from './schemas.js';

const RULES =
  'A kit is a product with components (units of other products per kit). Kits are one level deep: a component ' +
  'that is a kit itself, or a kit that is a component of another kit, is a 400; so is a kit containing itself or a ' +
  'SKU listed twice. Unknown SKUs are a 404. Orders already routed keep the recipe they were routed with.';

export function registerKitComponentRoutes(app: App, deps: Deps) {
  app.put(
    '/admin/accounts/:accountId/products/:sku/kit',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "Set a product's kit components",
        description: `Replaces the product's components. ${RULES}`,
        params: KitParams,
        body: Body,
        response: adminResponses({ 200: Kit }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, sku } = request.params;
      const body: Static<typeof Body> = request.body;
      const now = deps.clock.now();
      return withTx(deps.db.db, (tx) => setKitComponents(tx, accountId, sku, body.components, now));
    },
  );
  app.get(
    '/admin/accounts/:accountId/products/:sku/kit',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "Read a product's kit components",
        description: `The product's components ([] for a single SKU). ${RULES}`,
        params: KitParams,
        response: adminResponses({ 200: Kit }, [400, 401, 404]),
      },
    },
    async (request) => getKit(deps.db.db, request.params.accountId, request.params.sku),
  );
}
