import type { Selectable } from 'kysely';
import type { AppsTable } from '../../db/schema.js';
import type { Db } from '../../db/tx.js';
import type { Signer } from '../../lib/signer.js';
import { conflict, invalidField, notFound } from '../errors.js';
import { requireName, requireScopes } from './accounts.js';
import { APP_KINDS, type AppKind, type Scope } from './principal.js';
import { hashSecret, newClientId, newClientSecret, newSigningSecret } from './secrets.js';
import { checkCallbackBaseUrl } from './target-safety.js';

export interface RegisterAppInput {
  name: string;
  contactEmail: string;
  redirectUri: string;
  logoUrl?: string | null;
  /** Checked here (the CLI passes what the operator typed). */
  kind: string;
  scopes: readonly string[];
  callbackBaseUrl?: string | null;
}

export interface AppCredentials {
  appId: number;
  clientId: string;
  /** Shown once: only its hash is kept. */
  clientSecret: string;
  callbackSigningSecret: string;
}

/** What the operator sees of an app: everything but its secrets. */
export interface AppView {
  appId: number;
  name: string;
  kind: AppKind;
  scopes: Scope[];
  clientId: string;
  contactEmail: string;
  redirectUri: string;
  logoUrl: string | null;
  callbackBaseUrl: string | null;
  createdAt: string;
  /** While set and in the future, the secrets replaced by the last rotation still work. */
  previousSecretsValidUntil: string | null;
}

export interface RotatedCredentials extends AppCredentials {
  previousSecretsValidUntil: string;
}

/** Longest rotation overlap: long enough for a slow partner deploy, short enough that a leak closes. */
export const MAX_ROTATION_OVERLAP_SECONDS = 30 * 24 * 60 * 60;
export const DEFAULT_ROTATION_OVERLAP_SECONDS = 24 * 60 * 60;

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

export interface RegisterAppOptions {
  /** CALLBACKS_ALLOW_PRIVATE: a callback base URL may use http and point at loopback or private addresses. */
  callbacksAllowPrivate?: boolean;
}

export async function registerApp(
  db: Db,
  signer: Signer,
  input: RegisterAppInput,
  now: Date,
  options: RegisterAppOptions = {},
): Promise<AppCredentials> {
  const name = requireName('name', input.name);
  if (!(APP_KINDS as readonly string[]).includes(input.kind)) throw invalidField('kind', `must be one of ${APP_KINDS.join(', ')}`);
  const scopes = requireScopes('scopes', input.scopes);
  if (!/^[^@\s]+@[^@\s]+$/.test(input.contactEmail)) throw invalidField('contactEmail', 'must be an e-mail address');
  validateUrl('redirectUri', input.redirectUri);
  if (input.logoUrl) validateUrl('logoUrl', input.logoUrl);
  // Refused here, not only at delivery, so an operator learns at once that callbacks could never arrive.
  if (input.callbackBaseUrl) checkCallbackBaseUrl('callbackBaseUrl', input.callbackBaseUrl, options.callbacksAllowPrivate ?? false);

  const clientSecret = newClientSecret();
  const callbackSigningSecret = newSigningSecret();
  const clientId = newClientId();
  const row = await db
    .insertInto('apps')
    .values({
      name,
      contact_email: input.contactEmail,
      redirect_uri: input.redirectUri,
      logo_url: input.logoUrl ?? null,
      kind: input.kind,
      scopes: JSON.stringify(scopes),
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

export async function describeApp(db: Db, appId: number): Promise<AppView> {
  const row = await db.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirst();
  if (!row) throw notFound(`app ${appId} not found`);
  return appView(row);
}

/** Every registered app, oldest first (the operator console's list; a platform has tens, not thousands). */
export async function listApps(db: Db): Promise<AppView[]> {
  const rows = await db.selectFrom('apps').selectAll().orderBy('id').limit(1000).execute();
  return rows.map(appView);
}

function appView(row: Selectable<AppsTable>): AppView {
  return {
    appId: row.id,
    name: row.name,
    kind: row.kind as AppKind,
    scopes: JSON.parse(row.scopes) as Scope[],
    clientId: row.client_id,
    contactEmail: row.contact_email,
    redirectUri: row.redirect_uri,
    logoUrl: row.logo_url,
    callbackBaseUrl: row.callback_base_url,
    createdAt: row.created_at,
    previousSecretsValidUntil: row.previous_secret_expires_at,
  };
}

/**
 * Issues a new client secret and callback signing secret. The previous ones keep working for
 * `overlapSeconds` so the partner can deploy the new ones without downtime. Only one generation is kept:
 * rotating again ends the previous overlap at once.
 */
export async function rotateAppSecrets(
  db: Db,
  signer: Signer,
  appId: number,
  overlapSeconds: number,
  now: Date,
): Promise<RotatedCredentials> {
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_ROTATION_OVERLAP_SECONDS) {
    throw invalidField('overlapSeconds', `must be a whole number of seconds from 0 to ${MAX_ROTATION_OVERLAP_SECONDS}`);
  }
  const current = await db
    .selectFrom('apps')
    .select(['id', 'client_id', 'client_secret_hash', 'callback_signing_secret_sealed'])
    .where('id', '=', appId)
    .executeTakeFirst();
  if (!current) throw notFound(`app ${appId} not found`);
  const clientSecret = newClientSecret();
  const callbackSigningSecret = newSigningSecret();
  const previousSecretsValidUntil = new Date(now.getTime() + overlapSeconds * 1000).toISOString();
  const updated = await db
    .updateTable('apps')
    .set({
      client_secret_hash: hashSecret(clientSecret),
      previous_client_secret_hash: current.client_secret_hash,
      previous_secret_expires_at: previousSecretsValidUntil,
      callback_signing_secret_sealed: signer.seal(callbackSigningSecret),
      previous_callback_signing_secret_sealed: current.callback_signing_secret_sealed,
    })
    .where('id', '=', appId)
    // Conditional on the secret read above, so two concurrent rotations cannot both keep the same "previous".
    .where('client_secret_hash', '=', current.client_secret_hash)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw conflict(`app ${appId} was rotated concurrently; try again`);
  return { appId, clientId: current.client_id, clientSecret, callbackSigningSecret, previousSecretsValidUntil };
}

/**
 * Changes (or, with null, removes) an app's callback base URL, under the same rules as registration
 * (https, no private/loopback target unless CALLBACKS_ALLOW_PRIVATE). For the app update route
 * (`PATCH /admin/apps/{appId}`, DESIGN "Operator API"). Deliveries read the base URL at each attempt, so
 * pending ones go to the new URL and dead ones can be replayed to it.
 */
export async function setCallbackBaseUrl(db: Db, appId: number, callbackBaseUrl: string | null, options: RegisterAppOptions = {}): Promise<AppView> {
  if (callbackBaseUrl !== null) checkCallbackBaseUrl('callbackBaseUrl', callbackBaseUrl, options.callbacksAllowPrivate ?? false);
  const updated = await db.updateTable('apps').set({ callback_base_url: callbackBaseUrl }).where('id', '=', appId).executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw notFound(`app ${appId} not found`);
  return describeApp(db, appId);
}
