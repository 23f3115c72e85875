import type { Db, Tx } from '../../db/tx.js';
import { getAccount } from '../accounts/accounts.js';
import { conflict, notFound } from '../errors.js';
import type { SellerRole } from './users.js';

/**
 * The operator's side of console users: operator users listed, a disabled user (seller or operator) enabled
 * again, an account's open invitations listed and revoked. The owner's side (invite, disable staff) is in
 * invitations.ts.
 */

export interface OperatorUserView {
  userId: number;
  email: string;
  disabled: boolean;
  createdAt: string;
}

/** Operator users, oldest first (a handful; capped all the same). */
export async function listOperatorUsers(db: Db): Promise<OperatorUserView[]> {
  const rows = await db.selectFrom('console_users').select(['id', 'email', 'disabled_at', 'created_at']).where('kind', '=', 'OPERATOR').orderBy('id').limit(1000).execute();
  return rows.map((r) => ({ userId: r.id, email: r.email, disabled: r.disabled_at !== null, createdAt: r.created_at }));
}

/**
 * Lets a disabled user sign in again (their old sessions ended when they were disabled and stay ended). The
 * user is looked up where the operator found them: a seller user of `accountId`, or an operator user when
 * `accountId` is null; another one is a 404. Enabling an enabled user changes nothing (like disabling twice).
 * Returns the user's email.
 */
export async function enableUser(tx: Tx, target: { userId: number; accountId: number | null }, now: Date): Promise<{ email: string; wasDisabled: boolean }> {
  let query = tx.selectFrom('console_users').select(['id', 'email', 'disabled_at']).where('id', '=', target.userId);
  query = target.accountId === null ? query.where('kind', '=', 'OPERATOR') : query.where('kind', '=', 'SELLER').where('account_id', '=', target.accountId);
  const user = await query.executeTakeFirst();
  if (!user) throw notFound(`user ${target.userId} not found`);
  if (user.disabled_at === null) return { email: user.email, wasDisabled: false };
  const iso = now.toISOString();
  await tx.updateTable('console_users').set({ disabled_at: null, updated_at: iso }).where('id', '=', user.id).execute();
  return { email: user.email, wasDisabled: true };
}

export interface PendingInvitation {
  invitationId: number;
  email: string;
  role: SellerRole;
  createdAt: string;
  expiresAt: string;
}

/** The account's invitations not accepted and not expired yet, oldest first (console_invitations_account). */
export async function listPendingInvitations(db: Db, accountId: number, now: Date): Promise<PendingInvitation[]> {
  await getAccount(db, accountId);
  const rows = await db
    .selectFrom('console_invitations')
    .select(['id', 'email', 'role', 'created_at', 'expires_at'])
    .where('account_id', '=', accountId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .orderBy('id')
    .limit(1000)
    .execute();
  return rows.map((r) => ({ invitationId: r.id, email: r.email, role: r.role as SellerRole, createdAt: r.created_at, expiresAt: r.expires_at }));
}

/**
 * Revokes an invitation of `accountId` that was not accepted: its row is deleted, so its link answers as an
 * unknown one from now on. An accepted invitation is a user already (409: disable the user instead); another
 * account's or a missing one is a 404. Returns the email it was for.
 */
export async function revokeInvitation(tx: Tx, accountId: number, invitationId: number): Promise<{ email: string }> {
  const row = await tx.selectFrom('console_invitations').select(['id', 'email', 'accepted_at']).where('id', '=', invitationId).where('account_id', '=', accountId).executeTakeFirst();
  if (!row) throw notFound(`invitation ${invitationId} not found`);
  if (row.accepted_at !== null) throw conflict(`the invitation for ${row.email} was accepted already: that person is a user now`);
  // Conditional on still being open: an acceptance that commits first wins, and this one is refused.
  const deleted = await tx.deleteFrom('console_invitations').where('id', '=', row.id).where('accepted_at', 'is', null).executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) throw conflict(`the invitation for ${row.email} was accepted already: that person is a user now`);
  return { email: row.email };
}
