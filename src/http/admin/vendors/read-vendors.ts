import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { getAccount } from '../../../domain/accounts/accounts.js';
import { getVendor, listVendors, toVendorView } from '../../../domain/inbound/vendors.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, adminResponses } from '../schemas.js';
import { TAGS, VendorAdminList, VendorListQuery, VendorParams, VendorView } from './schemas.js';

export function registerAdminReadVendors(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/vendors',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "List an account's vendors",
        description:
          'Oldest first (by id); archived vendors only with `includeArchived=true`. Pages of `limit` (1..500, default 100): ' +
          'pass the answer\'s `nextAfter` as `after` for the next page, with the same `includeArchived`; `nextAfter` is ' +
          'null on the last page.',
        params: AccountParams,
        querystring: VendorListQuery,
        response: adminResponses({ 200: VendorAdminList }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId } = request.params;
      const { includeArchived, after, limit } = request.query;
      await getAccount(deps.db.db, accountId);
      const page = await listVendors(deps.db.db, accountId, {
        includeArchived: includeArchived ?? false,
        afterId: after ?? null,
        limit: limit ?? 100,
      });
      return { results: page.rows.map(toVendorView), nextAfter: page.next };
    },
  );
  app.get(
    '/admin/accounts/:accountId/vendors/:vendorId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Read a vendor',
        description: 'Archived vendors too. Another account\'s vendor is a 404.',
        params: VendorParams,
        response: adminResponses({ 200: VendorView }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, vendorId } = request.params;
      await getAccount(deps.db.db, accountId);
      return toVendorView(await getVendor(deps.db.db, accountId, vendorId));
    },
  );
}
