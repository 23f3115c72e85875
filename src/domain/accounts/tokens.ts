import type { DbHandle } from '../../db/connect.js';
import { prepareQuery } from '../../db/fast-paths.js';
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

/** The token's row, once per warehouse mapping of its installation (the mapping columns null when it has none). */
interface TokenWithMappingRow extends TokenRow {
  warehouse_id: number | null;
  warehouse_unique_id: string | null;
  controls_stock: number | null;
}

/**
 * Every partner request authenticates: one cached prepared statement finds the token and, for an integration,
 * its installation's warehouse mappings (a second statement, one more round trip on PostgreSQL, before).
 */
function tokenQueries(handle: DbHandle) {
  const db = handle.db;
  return {
    token: prepareQuery<TokenWithMappingRow, { hash: string }>(handle, (arg) =>
      db
        .selectFrom('access_tokens as t')
        .leftJoin('installations as i', 'i.id', 't.installation_id')
        .leftJoin('apps as a', 'a.id', 't.app_id')
        .leftJoin('warehouse_mappings as m', (j) => j.onRef('m.account_id', '=', 't.account_id').onRef('m.installation_id', '=', 't.installation_id'))
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
          'm.warehouse_id',
          'm.warehouse_unique_id',
          'm.controls_stock',
        ])
        .where('t.token_hash', '=', arg('hash'))
        .orderBy('m.warehouse_id'),
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
  const rows = await queries.token.all({ hash: hashSecret(token) });
  const row = rows[0];
  if (!row || row.revoked_at !== null) return null;
  if (row.installation_id !== null && row.installation_status !== 'ACTIVE') return null;
  const kind = row.kind as AppKind;
  const integration = kind === 'SHIPPING' || kind === 'INVENTORY' || kind === 'THIRD_PARTY_LOGISTICS';
  const mappings =
    integration && row.installation_id !== null
      ? rows.flatMap((m) =>
          m.warehouse_id === null ? [] : [{ warehouseId: m.warehouse_id, warehouseUniqueId: m.warehouse_unique_id!, controlsStock: m.controls_stock === 1 }],
        )
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
