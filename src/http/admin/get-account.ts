import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { getAccountWithSettings } from '../../domain/accounts/account-settings.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, AccountWithSettings, TAGS, adminResponses } from './schemas.js';

export function registerGetAccount(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Get a seller account with its settings',
        description: 'The account\'s name and settings (currency, time zone, personal-data retention), as changed with PATCH on the same path. An unknown account is a 404.',
        params: AccountParams,
        response: adminResponses({ 200: AccountWithSettings }, [400, 401, 404]),
      },
    },
    async (request) => getAccountWithSettings(deps.db.db, request.params.accountId),
  );
}
