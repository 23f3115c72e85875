import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { endAllSessions, endSession } from '../../domain/users/sessions.js';
import { signIn } from '../../domain/users/sign-in.js';
import { CsrfField, Layout, type PageContext } from './layout.js';
import { pageContext, sendHtml } from './render.js';
import { SESSION_COOKIE, clearSessionCookie, flash, setSessionCookie } from './session.js';

/** Longest `next` kept: the sign-in redirect builds it from a console URL, which is far shorter in practice. */
const MAX_NEXT_LENGTH = 2048;

/**
 * Only a path inside the console may follow sign-in (no open redirect to another site). It becomes a
 * Location header and a hidden field, so it must also be plain printable ASCII (a browser sends URLs
 * percent-encoded): a control character or a non-Latin-1 one would make the redirect throw (a 500), CR/LF
 * would split the header. Anything else, or anything over MAX_NEXT_LENGTH, falls back to /console.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > MAX_NEXT_LENGTH || !/^\/console(?:[/?#]|$)/.test(next) || /[^\x21-\x7e]|\\/.test(next)) return '/console';
  // Dot segments ("/console/../v1", "/console/%2e%2e/v1") leave the console once the browser resolves them.
  let path: string;
  try {
    const resolved = new URL(next, 'http://console.invalid');
    path = resolved.host === 'console.invalid' ? resolved.pathname : '';
  } catch {
    return '/console';
  }
  if (!/^\/console(?:\/|$)/.test(path) || path.startsWith('/console/login')) return '/console';
  return next;
}

interface LoginProps {
  ctx: PageContext;
  next: string;
  email: string;
  problem: string | null;
}

function LoginPage({ ctx, next, email, problem }: LoginProps) {
  const csrfToken = ctx.csrfToken;
  return (
    <Layout ctx={ctx} title="Sign in">
      <section class="login" aria-labelledby="login-title">
        <h1 id="login-title">Sign in</h1>
        {problem ? (
          <p class="flash bad" role="alert" safe>
            {problem}
          </p>
        ) : (
          ''
        )}
        <form class="stack" method="post" action="/console/login" hx-boost="false">
          <CsrfField token={csrfToken} />
          <input type="hidden" name="next" value={next} />
          <label>
            Email
            <input type="email" name="email" autocomplete="username" required value={email} />
          </label>
          <label>
            Password
            <input type="password" name="password" autocomplete="current-password" required />
          </label>
          <button type="submit">Sign in</button>
        </form>
      </section>
    </Layout>
  );
}

export function registerLogin(scope: FastifyInstance, deps: Deps): void {
  scope.get('/login', { schema: { hide: true } }, async (request, reply) => {
    const { next } = request.query as { next?: unknown };
    const user = request.consoleSession?.user;
    if (user) return reply.redirect(safeNext(next), 303);
    return sendHtml(reply, <LoginPage ctx={pageContext(request, reply, null)} next={safeNext(next)} email="" problem={null} />);
  });

  scope.post('/login', { schema: { hide: true } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const email = typeof body['email'] === 'string' ? body['email'] : '';
    const password = typeof body['password'] === 'string' ? body['password'] : '';
    const next = safeNext(body['next']);
    const result = await signIn(deps.db.db, email, password, request.ip, deps.clock.now());
    if (result.ok) {
      // A session cookie of an earlier visitor on this browser is replaced (and its session ended).
      const earlier = request.cookies[SESSION_COOKIE];
      if (earlier) await endSession(deps.db.db, earlier);
      setSessionCookie(deps, request, reply, result.token, result.expiresAt);
      request.log.info({ consoleUserId: result.user.userId, kind: result.user.kind }, 'console sign-in');
      const home = result.user.kind === 'OPERATOR' ? '/console/operator' : '/console/home';
      return reply.redirect(next === '/console' ? home : next, 303);
    }
    if (result.reason === 'throttled') {
      reply.header('Retry-After', String(result.retryAfterSeconds));
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      const problem = `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
      return sendHtml(reply, <LoginPage ctx={pageContext(request, reply, null)} next={next} email={email} problem={problem} />, 429);
    }
    return sendHtml(reply, <LoginPage ctx={pageContext(request, reply, null)} next={next} email={email} problem="The email or password is not right." />, 401);
  });

  scope.post('/logout', { schema: { hide: true } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await endSession(deps.db.db, token);
    clearSessionCookie(reply);
    return reply.redirect('/console/login', 303);
  });

  scope.post('/logout-everywhere', { schema: { hide: true } }, async (request, reply) => {
    const user = request.consoleSession?.user;
    if (user) await endAllSessions(deps.db.db, user.userId);
    clearSessionCookie(reply);
    flash(deps, request, reply, 'ok', 'You are signed out on every device.');
    return reply.redirect('/console/login', 303);
  });

  scope.get('/', { schema: { hide: true } }, async (request, reply) => {
    const user = request.consoleSession?.user;
    if (!user) return reply.redirect('/console/login', 303);
    return reply.redirect(user.kind === 'OPERATOR' ? '/console/operator' : '/console/home', 303);
  });
}
