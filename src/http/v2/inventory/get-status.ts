import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { inventoryIntegrationStatus } from '../../../domain/inventory/v2-status.js';
import { principalOf } from '../../plugins/auth.js';
import { v2Responses } from '../../schemas/common.js';
import { StatusResponse } from '../../schemas/inventory-v2.js';
import { INVENTORY_ROUTE_CONFIG, TAGS } from './route-config.js';

export function registerGetStatus(app: App, deps: Deps) {
  app.get(
    '/v2/inventory/status',
    {
      config: INVENTORY_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'The service\'s view of the integration\'s health',
        description:
          'Checks the service runs on the calling integration, all with source CHECK_SOURCE_SERVICE:\n' +
          '- `warehouse_mappings` (warehouseUniqueId ""): CHECK_STATE_PASS listing the mapped warehouses, or ' +
          'CHECK_STATE_FAIL when none is mapped (the seller must map one; nothing can be reported until then).\n' +
          '- `inventory_freshness`, one per mapped warehouse (warehouseUniqueId set): CHECK_STATE_PASS when its ' +
          'inventory was last reported within 24 hours, CHECK_STATE_WARN when longer ago, and CHECK_STATE_WARN ' +
          '"no inventory reported yet" when nothing was ever reported there.',
        response: v2Responses({ 200: StatusResponse }),
      },
    },
    async (request) => ({ checks: await inventoryIntegrationStatus(deps.db.db, principalOf(request), deps.clock.now()) }),
  );
}
