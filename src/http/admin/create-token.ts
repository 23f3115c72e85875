import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { issueSellerToken } from '../../domain/accounts/accounts.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, ScopeList, ScopeSchema, TAGS, adminResponses } from './schemas.js';

const CreateTokenBody = Type.Object(
  { scopes: ScopeList },
  { additionalProperties: false, examples: [{ scopes: ['inventory', 'sales:orders'] }] },
);

const IssuedToken = Type.Object(
  {
    tokenId: Type.Integer({ description: 'for revocation' }),
    access_token: Type.String({ description: 'shown once; only its hash is kept' }),
    token_type: Type.Literal('bearer'),
    scopes: Type.Array(ScopeSchema),
  },
  { examples: [{ tokenId: 12, access_token: 'mcs_3q2…', token_type: 'bearer', scopes: ['inventory', 'sales:orders'] }] },
);

export function registerCreateToken(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/tokens',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Issue an ad-hoc token (a seller tool) for an account',
        description: 'Document 5.1: a token with chosen scopes and no app, for internal integration development.',
        params: AccountParams,
        body: CreateTokenBody,
        response: adminResponses({ 201: IssuedToken }, [400, 401, 404]),
      },
    },
    async (request, reply) => {
      const { accountId } = request.params;
      const issued = await withTx(deps.db.db, (tx) => issueSellerToken(tx, accountId, request.body.scopes, deps.clock.now()));
      return reply
        .code(201)
        .header('Cache-Control', 'no-store')
        .send({ tokenId: issued.tokenId, access_token: issued.accessToken, token_type: 'bearer' as const, scopes: issued.scopes });
    },
  );
}
