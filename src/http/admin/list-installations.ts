import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { listInstallations } from '../../domain/accounts/installations.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, Installation, TAGS, adminResponses } from './schemas.js';

const InstallationList = Type.Object(
  { results: Type.Array(Installation) },
  {
    examples: [
      {
        results: [
          {
            installationId: 7,
            appId: 4,
            kind: 'INVENTORY',
            status: 'ACTIVE',
            storefrontName: null,
            storefrontId: null,
            integrationId: 7,
            mappings: [{ warehouseId: 2, warehouseUniqueId: 'EAST-01', controlsStock: true }],
            createdAt: '2026-11-21T22:13:08.123Z',
            revokedAt: null,
          },
        ],
      },
    ],
  },
);

export function registerListInstallations(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/installations',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "List an account's installations",
        description: 'Active and revoked, oldest first, with their warehouse mappings.',
        params: AccountParams,
        response: adminResponses({ 200: InstallationList }, [400, 401, 404]),
      },
    },
    async (request) => ({ results: await listInstallations(deps.db.db, request.params.accountId) }),
  );
}
