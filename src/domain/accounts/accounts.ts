import type { Db } from '../../db/tx.js';
import { invalidField, notFound } from '../errors.js';
import { issueAdHocToken } from './oauth.js';
import { SCOPES, type Scope } from './principal.js';
import { createDefaultCustomStore } from './default-custom-store.js';

export interface AccountView {
  accountId: number;
  name: string;
}

/** Names are free text but must say something: a blank name would make every listing unreadable. */
export function requireName(field: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw invalidField(field, 'must not be blank');
  return trimmed;
}

/** Checks scope labels against the document's ten (the HTTP schema does too; the CLI relies on this). */
export function requireScopes(field: string, scopes: readonly string[]): Scope[] {
  if (scopes.length === 0) throw invalidField(field, `needs at least one scope; known: ${SCOPES.join(', ')}`);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw invalidField(field, `unknown scope(s) ${unknown.join(', ')}; known: ${SCOPES.join(', ')}`);
  return [...new Set(scopes as Scope[])];
}

export async function createAccount(db: Db, input: { name: string }, now: Date): Promise<AccountView> {
  const name = requireName('name', input.name);
  const row = await db
    .insertInto('accounts')
    .values({ name, created_at: now.toISOString() })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
  await createDefaultCustomStore(db, row.id, now);
  return { accountId: row.id, name: row.name };
}

export async function getAccount(db: Db, accountId: number): Promise<AccountView> {
  const row = await db.selectFrom('accounts').select(['id', 'name']).where('id', '=', accountId).executeTakeFirst();
  if (!row) throw notFound(`account ${accountId} not found`);
  return { accountId: row.id, name: row.name };
}

export async function listAccounts(db: Db): Promise<AccountView[]> {
  const rows = await db.selectFrom('accounts').select(['id', 'name']).orderBy('id').execute();
  return rows.map((r) => ({ accountId: r.id, name: r.name }));
}

export interface IssuedSellerToken {
  tokenId: number;
  accessToken: string;
  scopes: Scope[];
}

/** The operator's ad-hoc token (document 5.1): a seller tool on an existing account with chosen scopes. */
export async function issueSellerToken(db: Db, accountId: number, scopes: readonly string[], now: Date): Promise<IssuedSellerToken> {
  const checked = requireScopes('scopes', scopes);
  await getAccount(db, accountId);
  const { tokenId, accessToken } = await issueAdHocToken(db, accountId, checked, now);
  return { tokenId, accessToken, scopes: checked };
}
