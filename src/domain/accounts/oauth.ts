import type { Db, Tx } from '../../db/tx.js';
import { safeEqual } from '../../lib/crypto.js';
import type { AppKind, Scope } from './principal.js';
import { hashSecret, newAccessToken } from './secrets.js';

/** RFC 6749 §5.2 error; rendered by the token route as {error, error_description}. */
export class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type',
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
  get status(): number {
    return this.error === 'invalid_client' ? 401 : 400;
  }
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface TokenExchangeInput {
  grantType: string | undefined;
  code: string | undefined;
  redirectUri: string | undefined;
  client: ClientCredentials | null;
}

// Compared against when the client id is unknown, so a miss costs the same as a wrong secret.
const DUMMY_HASH = hashSecret('no-such-client');

async function authenticateClient(db: Db, client: ClientCredentials, now: Date) {
  const app = await db
    .selectFrom('apps')
    .select([
      'id',
      'kind',
      'scopes',
      'redirect_uri',
      'client_secret_hash',
      'previous_client_secret_hash',
      'previous_secret_expires_at',
    ])
    .where('client_id', '=', client.clientId)
    .executeTakeFirst();
  const presented = hashSecret(client.clientSecret);
  const current = safeEqual(presented, app?.client_secret_hash ?? DUMMY_HASH);
  const previous =
    !!app?.previous_client_secret_hash &&
    !!app.previous_secret_expires_at &&
    app.previous_secret_expires_at > now.toISOString() &&
    safeEqual(presented, app.previous_client_secret_hash);
  if (!app || !(current || previous)) throw new OAuthError('invalid_client', 'client authentication failed');
  return app;
}

/** POST /v1/token: exchanges a one-time authorization code for an access token (resolutions §2). */
export async function exchangeAuthorizationCode(
  tx: Tx,
  input: TokenExchangeInput,
  now: Date,
): Promise<{ accessToken: string }> {
  if (!input.client) throw new OAuthError('invalid_client', 'client credentials are missing: use HTTP Basic or client_id and client_secret');
  if (!input.grantType) throw new OAuthError('invalid_request', 'grant_type is required');
  if (input.grantType !== 'authorization_code') {
    throw new OAuthError('unsupported_grant_type', `grant_type "${input.grantType}" is not supported; use authorization_code`);
  }
  if (!input.code) throw new OAuthError('invalid_request', 'code (or authorization_code) is required');
  if (!input.redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is required');

  const app = await authenticateClient(tx, input.client, now);
  const code = await tx
    .selectFrom('auth_codes as c')
    .innerJoin('installations as i', 'i.id', 'c.installation_id')
    .select(['c.id', 'c.account_id', 'c.installation_id', 'c.app_id', 'c.redirect_uri', 'c.expires_at', 'c.used_at', 'i.status'])
    .where('c.code_hash', '=', hashSecret(input.code))
    .executeTakeFirst();
  if (!code || code.app_id !== app.id) throw new OAuthError('invalid_grant', 'authorization code is invalid');
  if (code.used_at !== null) {
    // A replayed code may mean it leaked: revoke what it issued (RFC 6749 §4.1.2).
    await tx
      .updateTable('access_tokens')
      .set({ revoked_at: now.toISOString() })
      .where('auth_code_id', '=', code.id)
      .where('revoked_at', 'is', null)
      .execute();
    throw new OAuthError('invalid_grant', 'authorization code was already used; tokens issued from it are revoked');
  }
  if (code.expires_at <= now.toISOString()) throw new OAuthError('invalid_grant', 'authorization code has expired');
  if (input.redirectUri !== app.redirect_uri || input.redirectUri !== code.redirect_uri) {
    throw new OAuthError('invalid_grant', 'redirect_uri does not match the registered redirect URI');
  }
  if (code.status !== 'ACTIVE') throw new OAuthError('invalid_grant', 'the installation was revoked');

  const claimed = await tx
    .updateTable('auth_codes')
    .set({ used_at: now.toISOString() })
    .where('id', '=', code.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new OAuthError('invalid_grant', 'authorization code was already used');

  const accessToken = newAccessToken();
  await tx
    .insertInto('access_tokens')
    .values({
      account_id: code.account_id,
      app_id: app.id,
      installation_id: code.installation_id,
      auth_code_id: code.id,
      token_hash: hashSecret(accessToken),
      kind: app.kind,
      scopes: app.scopes,
      created_at: now.toISOString(),
      revoked_at: null,
    })
    .execute();
  return { accessToken };
}

/** Ad-hoc token (document 5.1): an account-level seller tool with chosen scopes and no app. */
export async function issueAdHocToken(
  db: Db,
  accountId: number,
  scopes: Scope[],
  now: Date,
  kind: AppKind = 'SELLER',
): Promise<{ tokenId: number; accessToken: string }> {
  const accessToken = newAccessToken();
  const row = await db
    .insertInto('access_tokens')
    .values({
      account_id: accountId,
      app_id: null,
      installation_id: null,
      auth_code_id: null,
      token_hash: hashSecret(accessToken),
      kind,
      scopes: JSON.stringify([...new Set(scopes)]),
      created_at: now.toISOString(),
      revoked_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { tokenId: row.id, accessToken };
}
