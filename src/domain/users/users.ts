import type { Selectable } from 'kysely';
import type { ConsoleUsersTable } from '../../db/schema.js';
import { isUniqueViolation, type Db } from '../../db/tx.js';
import { getAccount } from '../accounts/accounts.js';
import { alreadyExists, invalidFields, type FieldViolation } from '../errors.js';
import { hashPassword, passwordProblem } from './passwords.js';

export const SELLER_ROLES = ['OWNER', 'STAFF'] as const;
export type SellerRole = (typeof SELLER_ROLES)[number];

/** A signed-in person: a seller user of one account, or an operator. */
export type ConsoleUser =
  | { kind: 'SELLER'; userId: number; email: string; accountId: number; role: SellerRole }
  | { kind: 'OPERATOR'; userId: number; email: string };

export function toConsoleUser(row: Selectable<ConsoleUsersTable>): ConsoleUser {
  if (row.kind === 'OPERATOR') return { kind: 'OPERATOR', userId: row.id, email: row.email };
  return { kind: 'SELLER', userId: row.id, email: row.email, accountId: row.account_id!, role: row.role as SellerRole };
}

const MAX_EMAIL_LENGTH = 254;
// One @, something on each side, a dot in the domain, no spaces: enough to catch typos; the address is
// never mailed by the service, it is a sign-in name.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The case-insensitive key an email signs in with. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

export function emailProblem(email: string): string | null {
  const trimmed = email.trim();
  if (trimmed.length === 0) return 'is required';
  if (trimmed.length > MAX_EMAIL_LENGTH) return `must be at most ${MAX_EMAIL_LENGTH} characters`;
  if (!EMAIL.test(trimmed)) return 'must be an email address such as name@example.com';
  return null;
}

export function checkNewUser(email: string, password: string): void {
  const violations: FieldViolation[] = [];
  const e = emailProblem(email);
  if (e) violations.push({ field: 'email', description: e });
  const p = passwordProblem(password);
  if (p) violations.push({ field: 'password', description: p });
  if (violations.length > 0) throw invalidFields(violations);
}

async function insertUser(
  db: Db,
  values: { kind: 'SELLER' | 'OPERATOR'; accountId: number | null; email: string; role: SellerRole | null; password: string },
  now: Date,
): Promise<Selectable<ConsoleUsersTable>> {
  checkNewUser(values.email, values.password);
  const iso = now.toISOString();
  const passwordHash = await hashPassword(values.password);
  try {
    return await db
      .insertInto('console_users')
      .values({
        kind: values.kind,
        account_id: values.accountId,
        email: values.email.trim(),
        email_key: emailKey(values.email),
        role: values.role,
        password_hash: passwordHash,
        disabled_at: null,
        created_at: iso,
        updated_at: iso,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyExists(`a console user with email ${values.email.trim()} already exists`);
    throw error;
  }
}

export interface SellerUserView {
  userId: number;
  email: string;
  role: SellerRole;
  disabled: boolean;
  createdAt: string;
}

function sellerView(row: Selectable<ConsoleUsersTable>): SellerUserView {
  return { userId: row.id, email: row.email, role: row.role as SellerRole, disabled: row.disabled_at !== null, createdAt: row.created_at };
}

/** A seller user of `accountId` (the operator's POST /admin/accounts/{id}/users, or an accepted invitation). */
export async function createSellerUser(db: Db, accountId: number, input: { email: string; password: string; role: SellerRole }, now: Date): Promise<SellerUserView> {
  await getAccount(db, accountId);
  return sellerView(await insertUser(db, { kind: 'SELLER', accountId, email: input.email, role: input.role, password: input.password }, now));
}

export async function createOperatorUser(db: Db, input: { email: string; password: string }, now: Date): Promise<{ operatorId: number; email: string }> {
  const row = await insertUser(db, { kind: 'OPERATOR', accountId: null, email: input.email, role: null, password: input.password }, now);
  return { operatorId: row.id, email: row.email };
}

/** The account's users, oldest first (an account has a handful; the list is capped anyway). */
export async function listSellerUsers(db: Db, accountId: number): Promise<SellerUserView[]> {
  await getAccount(db, accountId);
  const rows = await db.selectFrom('console_users').selectAll().where('account_id', '=', accountId).where('kind', '=', 'SELLER').orderBy('id').limit(1000).execute();
  return rows.map(sellerView);
}

export async function findUserByEmail(db: Db, email: string): Promise<Selectable<ConsoleUsersTable> | undefined> {
  return db.selectFrom('console_users').selectAll().where('email_key', '=', emailKey(email)).executeTakeFirst();
}
