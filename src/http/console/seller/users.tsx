import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { createInvitation, disableStaffUser, INVITATION_TTL_MS, requireOwner } from '../../../domain/users/invitations.js';
import { SELLER_ROLES, listSellerUsers, type SellerRole } from '../../../domain/users/users.js';
import { Email, Role } from '../../admin/users/schemas.js';
import { Badge, Field, PostForm, Select, Table, actionOrBack, formAction, formatTs } from '../components.js';
import { readForm, type FormWords } from '../form-check.js';
import { Layout } from '../layout.js';
import { idParam } from '../params.js';
import { pageContext, sendHtml } from '../render.js';
import { sellerOf } from '../session.js';
import { ROLE_WORDS } from '../operator/words.js';

const ACTIVE = '/console/users';

/** The invite form: no API body has it, so it is built from the user fields of POST /admin/accounts/{id}/users. */
const InviteForm = Type.Object({ email: Email, role: Role });
const INVITE_WORDS: FormWords = { role: { says: `Role: choose ${SELLER_ROLES.map((r) => ROLE_WORDS[r]).join(' or ')}.` } };

/** The invitation link as the invitee will open it: PUBLIC_BASE_URL when set (behind a proxy), else this host. */
function inviteLink(deps: Deps, request: FastifyRequest, token: string): string {
  const base = deps.config.publicBaseUrl ?? `${request.protocol}://${request.host}`;
  return `${base.replace(/\/+$/, '')}/console/invite/${token}`;
}

/**
 * The account's users. Everyone sees the list; an OWNER invites people (a link shown once) and disables
 * staff. The owner-only rule lives in the domain (invitations.ts): a staff POST is refused there with 403.
 */
export function registerSellerUsers(scope: FastifyInstance, deps: Deps): void {
  scope.get('/users', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const users = await listSellerUsers(deps.db.db, user.accountId);
    const owner = user.role === 'OWNER';
    const ctx = pageContext(request, reply, user, ACTIVE);
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Users">
        <h1>Users</h1>
        <Table caption="Users of this account" head={['Email', 'Role', 'Status', 'Created', '']}>
          {users.map((u) => (
            <tr>
              <td safe>{u.email}</td>
              <td safe>{ROLE_WORDS[u.role] ?? u.role}</td>
              <td>{u.disabled ? <Badge tone="bad" text="disabled" /> : <Badge tone="ok" text="active" />}</td>
              <td safe>{formatTs(u.createdAt, user.settings)}</td>
              <td>
                {owner && u.role === 'STAFF' && !u.disabled ? (
                  <PostForm action={`${ACTIVE}/${u.userId}/disable`} csrfToken={ctx.csrfToken} confirm="Disable this user? Their sessions end now.">
                    <button type="submit" class="danger">
                      Disable
                    </button>
                  </PostForm>
                ) : (
                  ''
                )}
              </td>
            </tr>
          ))}
        </Table>
        {owner ? (
          <>
            <h2>Invite a user</h2>
            <p class="muted">{`You get a link to pass on; it works once, for ${INVITATION_TTL_MS / 86_400_000} days.`}</p>
            <PostForm action={`${ACTIVE}/invite`} csrfToken={ctx.csrfToken} class="stack">
              <Field label="Email" name="email" type="email" required />
              <Select label="Role" name="role" options={SELLER_ROLES.map((r): [string, string] => [r, ROLE_WORDS[r]])} value="STAFF" />
              <button type="submit">Create invitation</button>
            </PostForm>
          </>
        ) : (
          <p class="muted">Only an owner of the account can invite or disable users.</p>
        )}
      </Layout>,
    );
  });

  scope.post('/users/invite', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    // Refused as an error page (403) before the action, not as a flash: staff have no form that posts here.
    requireOwner(user);
    const invitation = await actionOrBack(deps, request, reply, ACTIVE, () =>
      createInvitation(deps.db.db, user, readForm(InviteForm, request.body, { words: INVITE_WORDS }), deps.clock.now()),
    );
    if (!invitation) return reply;
    const link = inviteLink(deps, request, invitation.token);
    const ctx = pageContext(request, reply, user, ACTIVE);
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Invitation created">
        <h1>Invitation created</h1>
        <p safe>{`Send this link to ${invitation.email} (${(ROLE_WORDS[invitation.role as SellerRole] ?? invitation.role).toLowerCase()}). It is shown only now, works once, and expires ${formatTs(invitation.expiresAt, user.settings)}.`}</p>
        <p>
          <code class="secret invite-link" safe>
            {link}
          </code>
        </p>
        <p>
          <a href={ACTIVE}>Back to users</a>
        </p>
      </Layout>,
    );
  });

  scope.post('/users/:userId/disable', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    requireOwner(user);
    const userId = idParam(request, 'userId');
    return formAction(deps, request, reply, ACTIVE, 'The user is disabled and signed out.', async () => {
      await withTx(deps.db.db, (tx) => disableStaffUser(tx, user, userId, deps.clock.now()));
    });
  });
}
