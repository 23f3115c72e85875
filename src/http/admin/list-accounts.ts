import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { listAccounts } from '../../domain/accounts/accounts.js';
import { ADMIN_ROUTE_CONFIG, Account, TAGS, adminResponses } from './schemas.js';

const AccountList = Type.Object(
  { results: Type.Array(Account) },
  { examples: [{ results: [{ accountId: 1, name: 'Sandbox seller' }] }] },
);

export function registerListAccounts(app: App, deps: Deps) {
  app.get(
    '/admin/accounts',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'List seller accounts',
        description: 'Every account, oldest first.',
        response: adminResponses({ 200: AccountList }, [401]),
      },
    },
    async () => ({ results: await listAccounts(deps.db.db) }),
  );
}
