import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * The console (issue 12; DESIGN.md "Users and sessions"):
 * - console_users: seller users of one account (role OWNER or STAFF) and operator users (no account). An
 *   email signs in to one user, compared case-insensitively (email_key), whatever its kind. Passwords are
 *   scrypt hashes with their parameters (src/domain/users/passwords.ts).
 * - console_sessions: server-side sessions; the cookie carries a random token, the table keeps its SHA-256.
 *   Absolute and idle expiry; "sign out everywhere" deletes a user's rows.
 * - console_login_failures: recent failed sign-ins by email and by address, for throttling.
 * - console_invitations: an account owner's invitation of a new user; the link's token is kept hashed.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { idType, idColumn }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('console_users')
    .addColumn('id', idType, idColumn)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('disabled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_users_account').on('console_users').columns(['account_id', 'id']).execute();

  await db.schema
    .createTable('console_sessions')
    .addColumn('id', idType, idColumn)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('console_users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_sessions_user').on('console_sessions').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('console_sessions_expiry').on('console_sessions').columns(['expires_at']).execute();

  await db.schema
    .createTable('console_login_failures')
    .addColumn('id', idType, idColumn)
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_login_failures_email').on('console_login_failures').columns(['email_key', 'at']).execute();
  await db.schema.createIndex('console_login_failures_ip').on('console_login_failures').columns(['ip', 'at']).execute();

  await db.schema
    .createTable('console_invitations')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'integer', (c) => c.notNull().references('console_users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .execute();
  await db.schema.createIndex('console_invitations_account').on('console_invitations').columns(['account_id', 'id']).execute();
}
