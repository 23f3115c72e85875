import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { revokeInstallation } from '../../domain/accounts/installations.js';
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
        summary: 'Revoke an installation',
        description:
          'Every token issued for it gets 401 from its next request on, its unused codes stop working, and the ' +
          'warehouses it controlled become editable again.',
        params: InstallationParams,
        response: adminResponses({ 200: Revoked }, [400, 401, 404, 409], 'the installation is already revoked'),
      },
    },
    async (request) => {
      const { accountId, installationId } = request.params;
      return withTx(deps.db.db, (tx) => revokeInstallation(tx, accountId, installationId, deps.clock.now()));
    },
  );
}
