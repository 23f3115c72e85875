import type { Db } from '../../db/tx.js';
import { randomBase64Url, sha256Hex } from '../../lib/crypto.js';
import { DEFAULT_ACCOUNT_SETTINGS, type AccountSettings } from '../accounts/account-settings.js';
import { toConsoleUser, type ConsoleUser } from './users.js';

/** A session ends this long after sign-in, however active. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** …or after this long without a request. */
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so browsing is not a write per page. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface ConsoleSession {
  sessionId: number;
  user: ConsoleUser;
  expiresAt: string;
  /** A seller's account settings (money and dates on every page), read with the session; null for operators. */
  accountSettings: AccountSettings | null;
}

/** Starts a session; the returned token goes in the cookie, only its SHA-256 is stored. */
export async function createSession(db: Db, userId: number, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBase64Url(32);
  const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
  const iso = now.toISOString();
  await db
    .insertInto('console_sessions')
    .values({ token_hash: sha256Hex(token), user_id: userId, created_at: iso, last_seen_at: iso, expires_at: expiresAt.toISOString() })
    .execute();
  return { token, expiresAt };
}

/**
 * The session of a cookie's token, or null when unknown, expired (absolute or idle), or its user is
 * disabled. An expired session's row is deleted on the way.
 */
export async function loadSession(db: Db, token: string, now: Date): Promise<ConsoleSession | null> {
  if (token.length === 0 || token.length > 100) return null;
  const row = await db
    .selectFrom('console_sessions as s')
    .innerJoin('console_users as u', 'u.id', 's.user_id')
    // The seller's account settings come with the same lookup, so a page needs no query of its own for them.
    .leftJoin('accounts as a', 'a.id', 'u.account_id')
    .selectAll('u')
    .select(['s.id as session_id', 's.last_seen_at', 's.expires_at', 'a.currency_code', 'a.time_zone', 'a.personal_data_retention_days'])
    .where('s.token_hash', '=', sha256Hex(token))
    .executeTakeFirst();
  if (!row) return null;
  const nowMs = now.getTime();
  const expired = Date.parse(row.expires_at) <= nowMs || Date.parse(row.last_seen_at) + SESSION_IDLE_MS <= nowMs;
  if (expired || row.disabled_at !== null) {
    await db.deleteFrom('console_sessions').where('id', '=', row.session_id).execute();
    return null;
  }
  if (nowMs - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS) {
    await db.updateTable('console_sessions').set({ last_seen_at: now.toISOString() }).where('id', '=', row.session_id).execute();
  }
  const user = toConsoleUser(row);
  const accountSettings: AccountSettings | null =
    user.kind === 'SELLER'
      ? {
          currencyCode: row.currency_code ?? DEFAULT_ACCOUNT_SETTINGS.currencyCode,
          timeZone: row.time_zone ?? DEFAULT_ACCOUNT_SETTINGS.timeZone,
          personalDataRetentionDays: row.personal_data_retention_days === null ? null : Number(row.personal_data_retention_days),
        }
      : null;
  return { sessionId: row.session_id, user, expiresAt: row.expires_at, accountSettings };
}

export async function endSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('token_hash', '=', sha256Hex(token)).execute();
}

/** Signs the user out on every device. */
export async function endAllSessions(db: Db, userId: number): Promise<number> {
  const result = await db.deleteFrom('console_sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
