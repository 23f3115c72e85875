import type { App } from '../../types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { OAuthError, exchangeAuthorizationCode, type ClientCredentials } from '../../../domain/accounts/oauth.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { renderError, toAppError } from '../../plugins/errors.js';
import { V1Error } from '../../schemas/common.js';

const TokenRequest = Type.Object(
  {
    grant_type: Type.Optional(Type.String({ examples: ['authorization_code'] })),
    code: Type.Optional(Type.String()),
    authorization_code: Type.Optional(Type.String({ description: 'accepted as an alias of code' })),
    redirect_uri: Type.Optional(Type.String()),
    client_id: Type.Optional(Type.String({ description: 'when not using HTTP Basic' })),
    client_secret: Type.Optional(Type.String({ description: 'when not using HTTP Basic' })),
  },
  { additionalProperties: true, examples: [{ grant_type: 'authorization_code', code: 'ac_5b1f…', redirect_uri: 'https://partner.example/oauth/callback' }] },
);

const TokenResponse = Type.Object(
  { access_token: Type.String(), token_type: Type.Literal('bearer') },
  { examples: [{ access_token: 'mcs_3q2…', token_type: 'bearer' }] },
);

const OAuthErrorBody = Type.Object(
  { error: Type.String(), error_description: Type.String() },
  { examples: [{ error: 'invalid_grant', error_description: 'authorization code has expired' }] },
);

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** HTTP Basic client authentication; a trailing newline in the decoded pair is ignored (resolutions §2). */
export function basicCredentials(header: string | undefined): ClientCredentials | null | 'malformed' {
  if (!header) return null;
  const match = /^basic\s+(\S+)\s*$/i.exec(header.trim());
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8').replace(/\r?\n$/, '');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return 'malformed';
  return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
}

/** RFC 6749 §4.1.3: the token request is form-encoded; JSON or anything else is refused, not guessed at. */
function isFormEncoded(request: FastifyRequest): boolean {
  const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/x-www-form-urlencoded';
}

function sendOAuthError(reply: FastifyReply, error: OAuthError) {
  if (error.error === 'invalid_client') reply.header('WWW-Authenticate', 'Basic realm="token"');
  return reply
    .code(error.status)
    .header('Cache-Control', 'no-store')
    .header('Pragma', 'no-cache')
    .send({ error: error.error, error_description: error.description });
}

export function registerExchangeToken(app: App, deps: Deps) {
  app.post(
    '/v1/token',
    {
      schema: {
        tags: ['token'],
        summary: 'Exchange an authorization code for an access token',
        description:
          'Form-encoded (application/x-www-form-urlencoded). The code may be sent as `code` or `authorization_code`. ' +
          'Authenticate the client with HTTP Basic (client_id:client_secret) or with client_id/client_secret fields. ' +
          'Codes are single-use and expire 10 minutes after the Install button; a replayed code revokes the tokens it issued.',
        security: [{ clientBasic: [] }],
        consumes: ['application/x-www-form-urlencoded'],
        body: TokenRequest,
        response: {
          200: TokenResponse,
          400: OAuthErrorBody,
          401: OAuthErrorBody,
          500: Type.Ref(V1Error, { description: 'service error' }),
        },
      },
      // Before the body schema: a JSON body is refused for its type, whatever fields it has.
      preValidation: async (request, reply) => {
        if (isFormEncoded(request)) return;
        return sendOAuthError(
          reply,
          new OAuthError('invalid_request', 'the token request must be sent as application/x-www-form-urlencoded'),
        );
      },
      errorHandler: (error, request, reply) => {
        const { appError, internal } = toAppError(error);
        if (internal || appError.status >= 500) {
          // A database failure is not the client's fault: answer 500 as every route does, still uncached.
          request.log.error({ err: error }, 'token exchange failed');
          reply.header('Cache-Control', 'no-store');
          return renderError(request, reply, appError);
        }
        // Validation, content-type and body-size failures: the RFC 6749 shape, not the v1 error body.
        request.log.info({ reason: appError.message }, 'token request rejected before processing');
        return sendOAuthError(reply, new OAuthError('invalid_request', 'the request body must be form-encoded fields, each given once'));
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      try {
        const basic = basicCredentials(request.headers.authorization);
        if (basic === 'malformed') throw new OAuthError('invalid_client', 'malformed HTTP Basic credentials');
        const form =
          body.client_id !== undefined && body.client_secret !== undefined
            ? { clientId: body.client_id, clientSecret: body.client_secret }
            : null;
        if (basic && form) throw new OAuthError('invalid_request', 'use one client authentication method, not both');
        const now = deps.clock.now();
        // An OAuthError is returned out of the transaction, not thrown through it, so that what it wrote
        // (a replayed code revokes its tokens) is committed while the exchange still fails.
        const outcome = await withTx(deps.db.db, async (tx) => {
          try {
            return await exchangeAuthorizationCode(
              tx,
              {
                grantType: body.grant_type,
                code: body.code ?? body.authorization_code,
                redirectUri: body.redirect_uri,
                client: basic ?? form,
              },
              now,
            );
          } catch (error) {
            if (error instanceof OAuthError) return error;
            throw error;
          }
        });
        if (outcome instanceof OAuthError) throw outcome;
        const { accessToken } = outcome;
        return reply
          .header('Cache-Control', 'no-store')
          .header('Pragma', 'no-cache')
          .send({ access_token: accessToken, token_type: 'bearer' as const });
      } catch (error) {
        if (error instanceof OAuthError) return sendOAuthError(reply, error);
        throw error;
      }
    },
  );
}
