import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { getAccount } from '../../../domain/accounts/accounts.js';
import { toVendorView, updateVendor } from '../../../domain/inbound/vendors.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { PatchVendorBody, TAGS, VendorParams, VendorView } from './schemas.js';

export function registerAdminUpdateVendor(app: App, deps: Deps) {
  app.patch(
    '/admin/accounts/:accountId/vendors/:vendorId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Edit, archive or restore a vendor',
        description:
          'Changes the fields given; a field left out stays as it is, null (or blank text) clears an optional one. ' +
          '`archived: true` archives the vendor: its shipments keep naming it and GET /v1/vendor/{id} still reads it, ' +
          'but lists leave it out and a new shipment naming it is a 400. `archived: false` restores it. A name taken by ' +
          'another vendor of the account (case-insensitively) is a 409. At least one field.',
        params: VendorParams,
        body: PatchVendorBody,
        response: adminResponses({ 200: VendorView }, [400, 401, 404, 409], 'another vendor of the account has this name'),
      },
    },
    async (request) => {
      const { accountId, vendorId } = request.params;
      const row = await withTx(deps.db.db, async (tx) => {
        await getAccount(tx, accountId);
        return updateVendor(tx, accountId, vendorId, request.body, deps.clock.now());
      });
      return toVendorView(row);
    },
  );
}
