import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { MIN_PASSWORD_LENGTH } from '../../../domain/users/passwords.js';
import { enableUser, revokeInvitation, type PendingInvitation } from '../../../domain/users/user-admin.js';
import { SELLER_ROLES, type SellerUserView } from '../../../domain/users/users.js';
import { Badge, Field, PostForm, Select, Table, formAction, formatTs } from '../components.js';
import { idParam } from '../params.js';
import { operatorOf } from '../session.js';
import { ROLE_WORDS } from './words.js';

const ROLE_CHOICES = SELLER_ROLES.map((r): [string, string] => [r, ROLE_WORDS[r]]);

/** A disabled user's Enable button (theirs to sign in again; their old sessions stay ended). */
export function EnableButton({ action, email, csrfToken }: { action: string; email: string; csrfToken: string }) {
  return (
    <PostForm action={action} csrfToken={csrfToken} confirm={`Let ${email} sign in again?`}>
      <button type="submit" class="secondary">
        Enable again
      </button>
    </PostForm>
  );
}

export function StatusBadge({ disabled }: { disabled: boolean }) {
  return disabled ? <Badge tone="bad" text="disabled" /> : <Badge tone="ok" text="active" />;
}

/** An account's seller users (enable a disabled one), the create form, and its open invitations (revoke). */
export function AccountUsersSection({ base, users, invitations, csrfToken }: { base: string; users: SellerUserView[]; invitations: PendingInvitation[]; csrfToken: string }) {
  return (
    <>
      <h2>Seller users</h2>
      {users.length === 0 ? (
        <p class="empty">No users yet: nobody can sign in to this account. Create its first user, an owner, below.</p>
      ) : (
        <div class="rows-stack">
          <Table caption="Seller users" head={['Email', 'Role', 'Status', 'Created', '']}>
            {users.map((u) => (
              <tr>
                <td safe>{u.email}</td>
                <td data-label="Role" safe>
                  {ROLE_WORDS[u.role]}
                </td>
                <td>
                  <StatusBadge disabled={u.disabled} />
                </td>
                <td data-label="Created" safe>
                  {formatTs(u.createdAt)}
                </td>
                <td>{u.disabled ? <EnableButton action={`${base}/users/${u.userId}/enable`} email={u.email} csrfToken={csrfToken} /> : ''}</td>
              </tr>
            ))}
          </Table>
        </div>
      )}
      <h3>New user</h3>
      <PostForm action={`${base}/users`} csrfToken={csrfToken} class="stack">
        <Field label="Email" name="email" type="email" required />
        <Field label="Password" name="password" type="password" required hint={`at least ${MIN_PASSWORD_LENGTH} characters; pass it on privately`} />
        <Select label="Role" name="role" options={ROLE_CHOICES} value={users.length === 0 ? 'OWNER' : 'STAFF'} />
        <button type="submit">Create user</button>
      </PostForm>

      <h2>Open invitations</h2>
      {invitations.length === 0 ? (
        <p class="empty">No open invitations. An owner of the account invites people from its Users page; an invitation shows here until it is used or expires.</p>
      ) : (
        <div class="rows-stack">
          <Table caption="Open invitations" head={['Email', 'Role', 'Invited', 'Expires', '']}>
            {invitations.map((i) => (
              <tr>
                <td safe>{i.email}</td>
                <td data-label="Role" safe>
                  {ROLE_WORDS[i.role]}
                </td>
                <td data-label="Invited" safe>
                  {formatTs(i.createdAt)}
                </td>
                <td data-label="Expires" safe>
                  {formatTs(i.expiresAt)}
                </td>
                <td>
                  <PostForm action={`${base}/invitations/${i.invitationId}/revoke`} csrfToken={csrfToken} confirm={`Revoke the invitation for ${i.email}? Its link stops working.`}>
                    <button type="submit" class="danger">
                      Revoke
                    </button>
                  </PostForm>
                </td>
              </tr>
            ))}
          </Table>
        </div>
      )}
    </>
  );
}

/** Enable a disabled seller user; revoke an open invitation (an account's page, `accountsPath`/{accountId}). */
export function registerOperatorAccountUsers(scope: FastifyInstance, deps: Deps, accountsPath: string): void {
  scope.post('/operator/accounts/:accountId/users/:userId/enable', { schema: { hide: true } }, async (request, reply) => {
    if (!operatorOf(request, reply)) return reply;
    const accountId = idParam(request, 'accountId');
    const userId = idParam(request, 'userId');
    return formAction(deps, request, reply, `${accountsPath}/${accountId}`, 'User enabled.', async () => {
      const result = await withTx(deps.db.db, (tx) => enableUser(tx, { userId, accountId }, deps.clock.now()));
      return result.wasDisabled ? `${result.email} can sign in again.` : `${result.email} was not disabled.`;
    });
  });

  scope.post('/operator/accounts/:accountId/invitations/:invitationId/revoke', { schema: { hide: true } }, async (request, reply) => {
    if (!operatorOf(request, reply)) return reply;
    const accountId = idParam(request, 'accountId');
    const invitationId = idParam(request, 'invitationId');
    return formAction(deps, request, reply, `${accountsPath}/${accountId}`, 'Invitation revoked.', async () => {
      const revoked = await withTx(deps.db.db, (tx) => revokeInvitation(tx, accountId, invitationId));
      return `The invitation for ${revoked.email} is revoked: its link no longer works.`;
    });
  });
}
