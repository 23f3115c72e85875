import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { shippingIntegrationStatus } from '../../../domain/fulfillment/status.js';
import { principalOf } from '../../plugins/auth.js';
import { v2Responses } from '../../schemas/common.js';
import { StatusResponse } from '../../schemas/inventory-v2.js';
import { SHIPPING_ROUTE_CONFIG, TAGS } from './route-config.js';

export function registerGetShippingStatus(app: App, deps: Deps) {
  app.get(
    '/v2/shipping/status',
    {
      config: SHIPPING_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'The service\'s view of the shipping integration\'s health',
        description:
          'Checks the service runs on the calling integration, all with source CHECK_SOURCE_SERVICE:\n' +
          '- `warehouse_mappings`: PASS listing your warehouses, or FAIL when none is mapped;\n' +
          '- `unacknowledged_work`, one per warehouse: WARN when fulfillment orders still owed have waited more than 24 h unacknowledged;\n' +
          '- `pending_cancellations`: WARN when a cancellation request has waited more than 24 h in need_to_cancel;\n' +
          '- `open_alerts`: WARN while alerts are open on your fulfillment orders (yours or the service\'s, e.g. rejected work waiting for the seller).',
        response: v2Responses({ 200: StatusResponse }),
      },
    },
    async (request) => ({ checks: await shippingIntegrationStatus(deps.db.db, principalOf(request), deps.clock.now()) }),
  );
}
