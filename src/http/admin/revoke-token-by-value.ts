import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { revokeTokenByValue } from '../../domain/accounts/tokens.js';
import { ADMIN_ROUTE_CONFIG, RevokedToken, TAGS, adminResponses } from './schemas.js';

const RevokeByValueBody = Type.Object(
  { accessToken: Type.String({ minLength: 1, maxLength: 500, description: 'the token itself, e.g. one found leaked' }) },
  { additionalProperties: false, examples: [{ accessToken: 'mcs_3q2…' }] },
);

export function registerRevokeTokenByValue(app: App, deps: Deps) {
  app.post(
    '/admin/tokens/revoke',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Revoke an access token by its value',
        description: 'For a token known only by value (say, found in a public repository), whatever its account.',
        body: RevokeByValueBody,
        response: adminResponses({ 200: RevokedToken }, [400, 401, 404, 409], 'the token is already revoked'),
      },
    },
    async (request) => withTx(deps.db.db, (tx) => revokeTokenByValue(tx, request.body.accessToken, deps.clock.now())),
  );
}
