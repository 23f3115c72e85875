import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { revokeToken } from '../../domain/accounts/tokens.js';
import { ADMIN_ROUTE_CONFIG, RevokedToken, TAGS, TokenParams, adminResponses } from './schemas.js';

export function registerRevokeToken(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/tokens/:tokenId/revoke',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Revoke an access token of an account',
        description: 'Any token of the account: ad-hoc or issued to an installation. It gets 401 from its next request on.',
        params: TokenParams,
        response: adminResponses({ 200: RevokedToken }, [400, 401, 404, 409], 'the token is already revoked'),
      },
    },
    async (request) => {
      const { accountId, tokenId } = request.params;
      await withTx(deps.db.db, (tx) => revokeToken(tx, accountId, tokenId, deps.clock.now()));
      return { tokenId, accountId, status: 'REVOKED' as const };
    },
  );
}
