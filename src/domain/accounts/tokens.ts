import type { DbHandle } from '../../db/connect.js';
import { prepareQuery } from '../../db/prepared.js';
import type { Db } from '../../db/tx.js';
import { conflict, notFound } from '../errors.js';
import type { AppKind, Principal, Scope } from './principal.js';
import { ACCESS_TOKEN_PREFIX, hashSecret } from './secrets.js';

interface TokenRow {
  id: number;
  account_id: number;
  app_id: number | null;
  installation_id: number | null;
  kind: string;
  scopes: string;
  revoked_at: string | null;
  installation_status: string | null;
  storefront_name: string | null;
  app_name: string | null;
}

interface MappingRow {
  warehouse_id: number;
  warehouse_unique_id: string;
  controls_stock: number;
}

/** Every partner request authenticates, so both lookups run as cached prepared statements. */
function tokenQueries(handle: DbHandle) {
  const db = handle.db;
  return {
    token: prepareQuery<TokenRow, { hash: string }>(handle, (arg) =>
      db
        .selectFrom('access_tokens as t')
        .leftJoin('installations as i', 'i.id', 't.installation_id')
        .leftJoin('apps as a', 'a.id', 't.app_id')
        .select([
          't.id',
          't.account_id',
          't.app_id',
          't.installation_id',
          't.kind',
          't.scopes',
          't.revoked_at',
          'i.status as installation_status',
          'i.storefront_name',
          'a.name as app_name',
        ])
        .where('t.token_hash', '=', arg('hash')),
    ),
    mappings: prepareQuery<MappingRow, { accountId: number; installationId: number }>(handle, (arg) =>
      db
        .selectFrom('warehouse_mappings')
        .select(['warehouse_id', 'warehouse_unique_id', 'controls_stock'])
        .where('account_id', '=', arg<number>('accountId'))
        .where('installation_id', '=', arg<number>('installationId'))
        .orderBy('warehouse_id'),
    ),
  };
}

const queriesByHandle = new WeakMap<DbHandle, ReturnType<typeof tokenQueries>>();

/**
 * Resolves a presented access token to its principal, or null when it is unknown, revoked, or its
 * installation is. The lookup is by SHA-256, so the raw token is never compared or stored.
 */
export async function authenticateToken(handle: DbHandle, token: string): Promise<Principal | null> {
  if (!token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > 200) return null;
  let queries = queriesByHandle.get(handle);
  if (!queries) {
    queries = tokenQueries(handle);
    queriesByHandle.set(handle, queries);
  }
  const row = await queries.token.first({ hash: hashSecret(token) });
  if (!row || row.revoked_at !== null) return null;
  if (row.installation_id !== null && row.installation_status !== 'ACTIVE') return null;
  const kind = row.kind as AppKind;
  const integration = kind === 'SHIPPING' || kind === 'INVENTORY' || kind === 'THIRD_PARTY_LOGISTICS';
  const mappings =
    integration && row.installation_id !== null
      ? (await queries.mappings.all({ accountId: row.account_id, installationId: row.installation_id })).map((m) => ({
          warehouseId: m.warehouse_id,
          warehouseUniqueId: m.warehouse_unique_id,
          controlsStock: m.controls_stock === 1,
        }))
      : [];
  return {
    tokenId: row.id,
    accountId: row.account_id,
    appId: row.app_id,
    appName: row.app_name ?? null,
    installationId: row.installation_id,
    kind,
    scopes: new Set(JSON.parse(row.scopes) as Scope[]),
    storefrontId: kind === 'SALES_CHANNEL' ? row.installation_id : null,
    storefrontName: kind === 'SALES_CHANNEL' ? row.storefront_name : null,
    integrationId: integration ? row.installation_id : null,
    mappings,
  };
}

/** Revokes one token; it gets 401 from its next request on. */
export async function revokeToken(db: Db, accountId: number, tokenId: number, now: Date): Promise<void> {
  const result = await db
    .updateTable('access_tokens')
    .set({ revoked_at: now.toISOString() })
    .where('account_id', '=', accountId)
    .where('id', '=', tokenId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return;
  const exists = await db
    .selectFrom('access_tokens')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', tokenId)
    .executeTakeFirst();
  if (!exists) throw notFound(`token ${tokenId} not found`);
  throw conflict(`token ${tokenId} is already revoked`);
}

/** Revokes a token the operator holds only by value (a leaked token); unknown values are a 404. */
export async function revokeTokenByValue(
  db: Db,
  token: string,
  now: Date,
): Promise<{ tokenId: number; accountId: number; status: 'REVOKED' }> {
  const row = await db
    .selectFrom('access_tokens')
    .select(['id', 'account_id'])
    .where('token_hash', '=', hashSecret(token))
    .executeTakeFirst();
  if (!row) throw notFound('no such access token');
  await revokeToken(db, row.account_id, row.id, now);
  return { tokenId: row.id, accountId: row.account_id, status: 'REVOKED' };
}
