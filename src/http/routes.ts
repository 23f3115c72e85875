import type { Deps } from '../deps.js';
import type { App } from './types.js';
import { registerAdminRoutes } from './admin/index.js';
import { registerTokenRoutes } from './v1/token/index.js';
import { registerV1InventoryRoutes } from './v1/inventory/index.js';
import { registerWarehouseRoutes } from './v1/warehouses/index.js';
import { registerV1SalesOrderRoutes } from './v1/sales-orders/index.js';
import { registerV1ListingRoutes } from './v1/listings/index.js';
import { registerV1CustomStoreRoutes } from './v1/custom-stores/index.js';
import { registerV1ReportRoutes } from './v1/reports/index.js';
import { registerV1ImportValidationRoutes } from './v1/import-validation/index.js';
import { registerV1InboundRoutes } from './v1/inbound/index.js';
import { registerV2InventoryRoutes } from './v2/inventory/index.js';
import { registerV2StorefrontRoutes } from './v2/storefront/index.js';
import { registerV2ShippingRoutes } from './v2/shipping/index.js';

/** Every area's routes; each area's index.ts registers its operations and their auth requirements. */
export async function registerRoutes(app: App, deps: Deps): Promise<void> {
  registerTokenRoutes(app, deps);
  registerWarehouseRoutes(app, deps);
  registerV1InventoryRoutes(app, deps);
  registerV1SalesOrderRoutes(app, deps);
  registerV1ListingRoutes(app, deps);
  registerV1CustomStoreRoutes(app, deps);
  registerV1ReportRoutes(app, deps);
  await registerV1ImportValidationRoutes(app, deps);
  registerV1InboundRoutes(app, deps);
  registerV2InventoryRoutes(app, deps);
  registerV2StorefrontRoutes(app, deps);
  registerV2ShippingRoutes(app, deps);
  registerAdminRoutes(app, deps);
}
