import type { Db, Tx } from '../../db/tx.js';
import { randomBase64Url, sha256Hex } from '../../lib/crypto.js';
import { alreadyExists, conflict, invalidField, notFound, permissionDenied } from '../errors.js';
import { passwordProblem } from './passwords.js';
import { createSession } from './sessions.js';
import { SELLER_ROLES, createSellerUser, emailKey, emailProblem, findUserByEmail, type SellerRole, type SellerUserView } from './users.js';

/**
 * An account owner invites a person by email and role; the service never mails anything: the owner passes
 * the link on. The link's token is random and only its SHA-256 is kept, so a database dump opens nothing.
 * An invitation is used once and ends after INVITATION_TTL_MS.
 */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Who may invite and disable users: an account's owners (staff see the list only). */
export interface Inviter {
  userId: number;
  accountId: number;
  role: SellerRole;
}

export function requireOwner(user: Pick<Inviter, 'role'>): void {
  if (user.role !== 'OWNER') throw permissionDenied("only an account owner can manage the account's users");
}

function requireRole(role: string): SellerRole {
  if (!(SELLER_ROLES as readonly string[]).includes(role)) throw invalidField('role', `must be one of ${SELLER_ROLES.join(', ')}`);
  return role as SellerRole;
}

export interface CreatedInvitation {
  invitationId: number;
  email: string;
  role: SellerRole;
  /** Shown once, in the link; only its hash is stored. */
  token: string;
  expiresAt: string;
}

export async function createInvitation(db: Db, inviter: Inviter, input: { email: string; role: string }, now: Date): Promise<CreatedInvitation> {
  requireOwner(inviter);
  const problem = emailProblem(input.email);
  if (problem) throw invalidField('email', problem);
  const role = requireRole(input.role);
  // Checked again on acceptance (the unique email key); here so the owner learns at once.
  if (await findUserByEmail(db, input.email)) throw alreadyExists(`a console user with email ${input.email.trim()} already exists`).because('user.email_taken', { email: input.email.trim() });
  const token = randomBase64Url(32);
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS).toISOString();
  const row = await db
    .insertInto('console_invitations')
    .values({
      account_id: inviter.accountId,
      email: input.email.trim(),
      email_key: emailKey(input.email),
      role,
      token_hash: sha256Hex(token),
      invited_by: inviter.userId,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      accepted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { invitationId: row.id, email: input.email.trim(), role, token, expiresAt };
}

export interface OpenInvitation {
  invitationId: number;
  accountId: number;
  email: string;
  role: SellerRole;
  expiresAt: string;
}

/** The invitation of a link's token while it can be accepted; a used, expired or unknown one is a 404 alike. */
export async function findOpenInvitation(db: Db, token: string, now: Date): Promise<OpenInvitation> {
  const gone = notFound('this invitation link is not valid: it was used already, it expired, or it was mistyped');
  if (token.length === 0 || token.length > 100) throw gone;
  const row = await db.selectFrom('console_invitations').selectAll().where('token_hash', '=', sha256Hex(token)).executeTakeFirst();
  if (!row || row.accepted_at !== null || Date.parse(row.expires_at) <= now.getTime()) throw gone;
  return { invitationId: row.id, accountId: row.account_id, email: row.email, role: row.role as SellerRole, expiresAt: row.expires_at };
}

/**
 * Accepts an invitation: creates the seller user with the chosen password and starts their session. The
 * claim is a conditional update in the same transaction as the user, so two submissions of one link
 * create one user, and a refused password leaves the invitation open. Run it in a transaction (withTx).
 */
export async function acceptInvitation(
  tx: Tx,
  token: string,
  password: string,
  now: Date,
): Promise<{ user: SellerUserView; accountId: number; session: { token: string; expiresAt: Date } }> {
  const problem = passwordProblem(password);
  if (problem) throw invalidField('password', problem);
  const invitation = await findOpenInvitation(tx, token, now);
  const claimed = await tx
    .updateTable('console_invitations')
    .set({ accepted_at: now.toISOString() })
    .where('id', '=', invitation.invitationId)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw conflict('this invitation was accepted already');
  const user = await createSellerUser(tx, invitation.accountId, { email: invitation.email, password, role: invitation.role }, now);
  const session = await createSession(tx, user.userId, now);
  return { user, accountId: invitation.accountId, session };
}

/** An owner disables a staff user of their account: they can no longer sign in, and their sessions end now (in a transaction). */
export async function disableStaffUser(tx: Tx, owner: Inviter, userId: number, now: Date): Promise<void> {
  requireOwner(owner);
  const target = await tx.selectFrom('console_users').select(['id', 'role', 'disabled_at']).where('id', '=', userId).where('account_id', '=', owner.accountId).where('kind', '=', 'SELLER').executeTakeFirst();
  if (!target) throw notFound(`user ${userId} not found`);
  if (target.role !== 'STAFF') throw invalidField('userId', 'only a staff user can be disabled here');
  if (target.disabled_at !== null) return;
  const iso = now.toISOString();
  await tx.updateTable('console_users').set({ disabled_at: iso, updated_at: iso }).where('id', '=', userId).execute();
  await tx.deleteFrom('console_sessions').where('user_id', '=', userId).execute();
}
