import type { Db } from '../../db/tx.js';
import { dummyPasswordHash, verifyPassword } from './passwords.js';
import { createSession } from './sessions.js';
import { emailKey, findUserByEmail, toConsoleUser, type ConsoleUser } from './users.js';

/** Failed sign-ins counted over this window… */
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
/** …per email (guessing one person's password)… */
export const MAX_FAILURES_PER_EMAIL = 5;
/** …and per client address (trying many emails). */
export const MAX_FAILURES_PER_IP = 30;

export type SignInResult =
  | { ok: true; user: ConsoleUser; token: string; expiresAt: Date }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/** Seconds until the oldest counted failure leaves the window, when either limit is reached; else null. */
async function throttledFor(db: Db, key: string, ip: string, now: Date): Promise<number | null> {
  const since = new Date(now.getTime() - THROTTLE_WINDOW_MS).toISOString();
  const check = async (column: 'email_key' | 'ip', value: string, limit: number): Promise<number | null> => {
    const rows = await db.selectFrom('console_login_failures').select('at').where(column, '=', value).where('at', '>', since).orderBy('at', 'desc').limit(limit).execute();
    if (rows.length < limit) return null;
    // The limit-th newest failure must leave the window before another try is allowed.
    const oldest = Date.parse(rows[rows.length - 1]!.at);
    return Math.max(1, Math.ceil((oldest + THROTTLE_WINDOW_MS - now.getTime()) / 1000));
  };
  const byEmail = await check('email_key', key, MAX_FAILURES_PER_EMAIL);
  const byIp = await check('ip', ip, MAX_FAILURES_PER_IP);
  if (byEmail === null && byIp === null) return null;
  return Math.max(byEmail ?? 0, byIp ?? 0);
}

async function recordFailure(db: Db, key: string, ip: string, now: Date): Promise<void> {
  // Old rows of this email and address go on the way, so the table holds about one window of failures.
  const before = new Date(now.getTime() - THROTTLE_WINDOW_MS).toISOString();
  await db.deleteFrom('console_login_failures').where('email_key', '=', key).where('at', '<=', before).execute();
  await db.deleteFrom('console_login_failures').where('ip', '=', ip).where('at', '<=', before).execute();
  await db.insertInto('console_login_failures').values({ email_key: key, ip, at: now.toISOString() }).execute();
}

/**
 * Checks an email and password and starts a session. Throttled (before the password is even checked)
 * after MAX_FAILURES_PER_EMAIL failures for the email or MAX_FAILURES_PER_IP from the address within the
 * window. An unknown email, a wrong password and a disabled user all answer the same 'invalid', after the
 * same work (a dummy hash is checked for an unknown email).
 */
export async function signIn(db: Db, email: string, password: string, ip: string, now: Date): Promise<SignInResult> {
  const key = emailKey(email).slice(0, 254);
  const wait = await throttledFor(db, key, ip, now);
  if (wait !== null) return { ok: false, reason: 'throttled', retryAfterSeconds: wait };
  const row = key === '' ? undefined : await findUserByEmail(db, key);
  const matches = await verifyPassword(password.slice(0, 1000), row?.password_hash ?? (await dummyPasswordHash()));
  if (!row || !matches || row.disabled_at !== null) {
    await recordFailure(db, key, ip, now);
    return { ok: false, reason: 'invalid' };
  }
  await db.deleteFrom('console_login_failures').where('email_key', '=', key).execute();
  const session = await createSession(db, row.id, now);
  return { ok: true, user: toConsoleUser(row), token: session.token, expiresAt: session.expiresAt };
}
