import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { getAccount } from '../../domain/accounts/accounts.js';
import { isAppError } from '../../domain/errors.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../domain/users/passwords.js';
import { acceptInvitation, findOpenInvitation, type OpenInvitation } from '../../domain/users/invitations.js';
import { endSession } from '../../domain/users/sessions.js';
import { CsrfField, Layout, type PageContext } from './layout.js';
import { textParam } from './params.js';
import { pageContext, sendHtml } from './render.js';
import { SESSION_COOKIE, flash, setSessionCookie } from './session.js';

function InvitePage({ ctx, token, invitation, accountName, problem }: { ctx: PageContext; token: string; invitation: OpenInvitation; accountName: string; problem: string | null }) {
  return (
    <Layout ctx={ctx} title="Accept the invitation">
      <section class="login" aria-labelledby="invite-title">
        <h1 id="invite-title">Join the console</h1>
        <p safe>{`You are invited to ${accountName} as ${invitation.role.toLowerCase()}, signing in as ${invitation.email}.`}</p>
        {problem ? (
          <p class="flash bad" role="alert" safe>
            {problem}
          </p>
        ) : (
          ''
        )}
        <form class="stack" method="post" action={`/console/invite/${encodeURIComponent(token)}`} hx-boost="false">
          <CsrfField token={ctx.csrfToken} />
          <label>
            <span>{`Choose a password (at least ${MIN_PASSWORD_LENGTH} characters)`}</span>
            <input type="password" name="password" autocomplete="new-password" required minlength={String(MIN_PASSWORD_LENGTH)} maxlength={String(MAX_PASSWORD_LENGTH)} />
          </label>
          <button type="submit">Create my user and sign in</button>
        </form>
      </section>
    </Layout>
  );
}

/**
 * GET/POST /console/invite/:token: the invitee chooses a password; the seller user is created with the
 * invitation's account and role, and signed in. A used, expired or unknown link is a 404 page.
 */
export function registerInvite(scope: FastifyInstance, deps: Deps): void {
  scope.get('/invite/:token', { schema: { hide: true } }, async (request, reply) => {
    const token = textParam(request, 'token');
    const invitation = await findOpenInvitation(deps.db.db, token, deps.clock.now());
    const account = await getAccount(deps.db.db, invitation.accountId);
    reply.header('Referrer-Policy', 'no-referrer');
    return sendHtml(reply, <InvitePage ctx={pageContext(request, reply, null)} token={token} invitation={invitation} accountName={account.name} problem={null} />);
  });

  scope.post('/invite/:token', { schema: { hide: true } }, async (request, reply) => {
    const token = textParam(request, 'token');
    const body = (request.body ?? {}) as Record<string, unknown>;
    const password = typeof body['password'] === 'string' ? body['password'] : '';
    try {
      const accepted = await withTx(deps.db.db, (tx) => acceptInvitation(tx, token, password, deps.clock.now()));
      const earlier = request.cookies[SESSION_COOKIE];
      if (earlier) await endSession(deps.db.db, earlier);
      setSessionCookie(deps, request, reply, accepted.session.token, accepted.session.expiresAt);
      request.log.info({ consoleUserId: accepted.user.userId, accountId: accepted.accountId }, 'console invitation accepted');
      flash(deps, request, reply, 'ok', `Welcome, ${accepted.user.email}.`);
      return reply.redirect('/console/home', 303);
    } catch (error) {
      // A refused password shows the form again with the reason; a gone invitation is the 404 page.
      if (!isAppError(error) || error.status !== 400) throw error;
      const invitation = await findOpenInvitation(deps.db.db, token, deps.clock.now());
      const account = await getAccount(deps.db.db, invitation.accountId);
      const problem = error.violations.map((v) => `${v.field === 'password' ? 'The password' : v.field} ${v.description}.`).join(' ') || error.message;
      return sendHtml(reply, <InvitePage ctx={pageContext(request, reply, null)} token={token} invitation={invitation} accountName={account.name} problem={problem} />, 400);
    }
  });
}
