import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { uninstallApp } from '../../domain/accounts/integration-changes.js';
import { warehouseWorkPort } from '../../domain/fulfillment/warehouse-handover.js';
import { ADMIN_ROUTE_CONFIG, InstallationParams, TAGS, adminResponses } from './schemas.js';

const Revoked = Type.Object(
  { installationId: Type.Integer(), status: Type.Literal('REVOKED') },
  { examples: [{ installationId: 7, status: 'REVOKED' }] },
);

export function registerRevokeInstallation(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/installations/:installationId/revoke',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Revoke an installation (uninstall the app)',
        description:
          'Uninstalls any app. Every token issued for it gets 401 from its next request on, its unused codes stop ' +
          'working, and the warehouses it controlled become editable again. A SHIPPING or THIRD_PARTY_LOGISTICS ' +
          "installation's open work is pulled back as a cancellation does: its NEW fulfillment orders are withdrawn, " +
          'its ACCEPTED ones get a cancellation request in need_to_cancel. The units stay routed and reserved in ' +
          'their warehouses; the next shipping or 3PL integration mapped to a warehouse gets them as new ' +
          'fulfillment orders.',
        params: InstallationParams,
        response: adminResponses({ 200: Revoked }, [400, 401, 404, 409], 'the installation is already revoked'),
      },
    },
    async (request) => {
      const { accountId, installationId } = request.params;
      const uninstalled = await withTx(deps.db.db, (tx) => uninstallApp(tx, accountId, installationId, deps.clock.now(), warehouseWorkPort));
      return { installationId: uninstalled.installationId, status: uninstalled.status };
    },
  );
}
