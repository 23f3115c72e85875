import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { getVendor, toVendorResultV1 } from '../../../domain/inbound/vendors.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { VendorIdParams, VendorResultBody } from '../../schemas/inbound-queries.js';
import { INBOUND_ROUTE_CONFIG, VENDOR_TAGS } from './route-config.js';

export function registerGetVendor(app: App, deps: Deps) {
  app.get(
    '/v1/vendor/:id',
    {
      config: INBOUND_ROUTE_CONFIG,
      schema: {
        tags: VENDOR_TAGS,
        summary: 'Read a vendor',
        description:
          'The vendor wrapped in `results` (document 2.8, resolutions §3): `vendorId`, `name`, `address`, `leadTimeDays`, ' +
          '`notes`, `paymentWindowDays`. Archived vendors are still readable (shipments name them). Another account\'s ' +
          'vendor is a 404.',
        params: VendorIdParams,
        response: v1Responses({ 200: VendorResultBody }, [400, 401, 403, 404, 429]),
      },
    },
    async (request) => {
      const row = await getVendor(deps.db.db, principalOf(request).accountId, request.params.id);
      return { results: toVendorResultV1(row) };
    },
  );
}
