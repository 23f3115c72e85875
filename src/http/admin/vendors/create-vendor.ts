import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { createVendor, MAX_VENDORS, toVendorView } from '../../../domain/inbound/vendors.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, adminResponses } from '../schemas.js';
import { CreateVendorBody, TAGS, VendorView } from './schemas.js';

export function registerAdminCreateVendor(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/vendors',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Create a vendor (a supplier of the seller)',
        description:
          'Inbound shipments name their vendor (POST /v1/inbound-shipment `vendor_name` or `vendor_id`); partners read ' +
          'vendors at GET /v1/vendor. Names are unique in the account compared case-insensitively ("Acme" and "ACME" ' +
          'are one vendor): a taken name is a 409. Optional text fields are trimmed, blank is stored as null. ' +
          `At most ${MAX_VENDORS.toLocaleString('en-US')} vendors per account (400 beyond).`,
        params: AccountParams,
        body: CreateVendorBody,
        response: adminResponses({ 201: VendorView }, [400, 401, 404, 409], 'the account already has a vendor with this name'),
      },
    },
    async (request, reply) => {
      const row = await withTx(deps.db.db, (tx) => createVendor(tx, request.params.accountId, request.body, deps.clock.now()));
      return reply.code(201).send(toVendorView(row));
    },
  );
}
