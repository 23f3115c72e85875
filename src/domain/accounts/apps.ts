import type { Db } from '../../db/tx.js';
import type { Signer } from '../../lib/signer.js';
import { invalidField, notFound } from '../errors.js';
import { APP_KINDS, SCOPES, type AppKind, type Scope } from './principal.js';
import { hashSecret, newClientId, newClientSecret, newSigningSecret } from './secrets.js';

export interface RegisterAppInput {
  name: string;
  contactEmail: string;
  redirectUri: string;
  logoUrl?: string | null;
  kind: AppKind;
  scopes: Scope[];
  callbackBaseUrl?: string | null;
}

export interface AppCredentials {
  appId: number;
  clientId: string;
  /** Shown once: only its hash is kept. */
  clientSecret: string;
  callbackSigningSecret: string;
}

export interface AppRecord {
  id: number;
  name: string;
  kind: AppKind;
  scopes: Scope[];
  clientId: string;
  redirectUri: string;
}

function validateUrl(field: string, value: string, httpsOnly = false): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidField(field, 'must be an absolute URL');
  }
  const allowed = httpsOnly ? ['https:'] : ['https:', 'http:'];
  if (!allowed.includes(url.protocol)) throw invalidField(field, `must use ${allowed.join(' or ')}`);
}

export async function registerApp(db: Db, signer: Signer, input: RegisterAppInput, now: Date): Promise<AppCredentials> {
  if (!APP_KINDS.includes(input.kind)) throw invalidField('kind', `must be one of ${APP_KINDS.join(', ')}`);
  const unknown = input.scopes.filter((s) => !SCOPES.includes(s));
  if (unknown.length > 0) throw invalidField('scopes', `unknown scope(s) ${unknown.join(', ')}; known: ${SCOPES.join(', ')}`);
  if (!/^[^@\s]+@[^@\s]+$/.test(input.contactEmail)) throw invalidField('contactEmail', 'must be an e-mail address');
  validateUrl('redirectUri', input.redirectUri);
  if (input.logoUrl) validateUrl('logoUrl', input.logoUrl);
  if (input.callbackBaseUrl) validateUrl('callbackBaseUrl', input.callbackBaseUrl);

  const clientSecret = newClientSecret();
  const callbackSigningSecret = newSigningSecret();
  const clientId = newClientId();
  const row = await db
    .insertInto('apps')
    .values({
      name: input.name,
      contact_email: input.contactEmail,
      redirect_uri: input.redirectUri,
      logo_url: input.logoUrl ?? null,
      kind: input.kind,
      scopes: JSON.stringify([...new Set(input.scopes)]),
      callback_base_url: input.callbackBaseUrl ?? null,
      client_id: clientId,
      client_secret_hash: hashSecret(clientSecret),
      previous_client_secret_hash: null,
      previous_secret_expires_at: null,
      callback_signing_secret_sealed: signer.seal(callbackSigningSecret),
      previous_callback_signing_secret_sealed: null,
      created_at: now.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { appId: row.id, clientId, clientSecret, callbackSigningSecret };
}

export async function getApp(db: Db, appId: number): Promise<AppRecord> {
  const row = await db
    .selectFrom('apps')
    .select(['id', 'name', 'kind', 'scopes', 'client_id', 'redirect_uri'])
    .where('id', '=', appId)
    .executeTakeFirst();
  if (!row) throw notFound(`app ${appId} not found`);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as AppKind,
    scopes: JSON.parse(row.scopes) as Scope[],
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
  };
}

/**
 * Issues a new client secret and callback signing secret. The previous ones keep working for
 * `overlapSeconds` so the partner can deploy the new ones without downtime.
 */
export async function rotateAppSecrets(
  db: Db,
  signer: Signer,
  appId: number,
  overlapSeconds: number,
  now: Date,
): Promise<AppCredentials> {
  const current = await db
    .selectFrom('apps')
    .select(['id', 'client_id', 'client_secret_hash', 'callback_signing_secret_sealed'])
    .where('id', '=', appId)
    .executeTakeFirst();
  if (!current) throw notFound(`app ${appId} not found`);
  const clientSecret = newClientSecret();
  const callbackSigningSecret = newSigningSecret();
  await db
    .updateTable('apps')
    .set({
      client_secret_hash: hashSecret(clientSecret),
      previous_client_secret_hash: current.client_secret_hash,
      previous_secret_expires_at: new Date(now.getTime() + overlapSeconds * 1000).toISOString(),
      callback_signing_secret_sealed: signer.seal(callbackSigningSecret),
      previous_callback_signing_secret_sealed: current.callback_signing_secret_sealed,
    })
    .where('id', '=', appId)
    .execute();
  return { appId, clientId: current.client_id, clientSecret, callbackSigningSecret };
}
