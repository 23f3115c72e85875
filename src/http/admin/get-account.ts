import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { getAccount } from '../../domain/accounts/accounts.js';
import { ADMIN_ROUTE_CONFIG, Account, AccountParams, TAGS, adminResponses } from './schemas.js';

export function registerGetAccount(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Get a seller account',
        params: AccountParams,
        response: adminResponses({ 200: Account }, [400, 401, 404]),
      },
    },
    async (request) => getAccount(deps.db.db, request.params.accountId),
  );
}
