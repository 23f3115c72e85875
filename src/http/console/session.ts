import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { DEFAULT_ACCOUNT_SETTINGS, type AccountSettings } from '../../domain/accounts/account-settings.js';
import { loadSession, type ConsoleSession } from '../../domain/users/sessions.js';
import type { ConsoleUser } from '../../domain/users/users.js';
import { cookieSecure } from './security.js';

export const SESSION_COOKIE = 'mcs_session';
const FLASH_COOKIE = 'mcs_flash';

declare module 'fastify' {
  interface FastifyRequest {
    consoleSession: ConsoleSession | null;
  }
}

/** A signed-in seller with the account's settings (read with the session): pages format with `user.settings`. */
export type SellerUser = Extract<ConsoleUser, { kind: 'SELLER' }> & { settings: AccountSettings };
export type OperatorUser = Extract<ConsoleUser, { kind: 'OPERATOR' }>;

/** Loads the session of the request's cookie (assets excepted) into request.consoleSession. */
export function registerConsoleSessions(scope: FastifyInstance, deps: Deps): void {
  scope.decorateRequest('consoleSession', null);
  scope.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/console/assets/')) return;
    const token = request.cookies[SESSION_COOKIE];
    if (token) request.consoleSession = await loadSession(deps.db.db, token, deps.clock.now());
  });
}

export function setSessionCookie(deps: Deps, request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): void {
  reply.setCookie(SESSION_COOKIE, token, { path: '/console', httpOnly: true, sameSite: 'lax', secure: cookieSecure(deps, request), expires: expiresAt });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/console' });
}

/** Where a signed-out visitor is sent: the sign-in form, back here afterwards (GET pages only). */
function toSignIn(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
  // htmx follows HX-Redirect with a full page load instead of swapping the sign-in form into a fragment.
  if (request.headers['hx-request']) return reply.header('HX-Redirect', `/console/login${next}`).code(401).send('');
  return reply.redirect(`/console/login${next}`, 303);
}

/** The signed-in seller user, or a redirect to sign in (null: the reply is sent, return it). */
export function sellerOf(request: FastifyRequest, reply: FastifyReply): SellerUser | null {
  const user = request.consoleSession?.user;
  if (user?.kind === 'SELLER') return { ...user, settings: request.consoleSession?.accountSettings ?? { ...DEFAULT_ACCOUNT_SETTINGS } };
  if (user?.kind === 'OPERATOR') {
    void reply.redirect('/console/operator', 303);
    return null;
  }
  void toSignIn(request, reply);
  return null;
}

export function operatorOf(request: FastifyRequest, reply: FastifyReply): OperatorUser | null {
  const user = request.consoleSession?.user;
  if (user?.kind === 'OPERATOR') return user;
  if (user?.kind === 'SELLER') {
    void reply.redirect('/console/home', 303);
    return null;
  }
  void toSignIn(request, reply);
  return null;
}

/** A one-time message shown on the next page (after a redirect). */
export function flash(deps: Deps, request: FastifyRequest, reply: FastifyReply, kind: 'ok' | 'bad', text: string): void {
  reply.setCookie(FLASH_COOKIE, JSON.stringify({ kind, text: text.slice(0, 500) }), { path: '/console', httpOnly: true, sameSite: 'lax', secure: cookieSecure(deps, request) });
}

export function takeFlash(request: FastifyRequest, reply: FastifyReply): { kind: 'ok' | 'bad'; text: string } | null {
  const raw = request.cookies[FLASH_COOKIE];
  if (!raw) return null;
  reply.clearCookie(FLASH_COOKIE, { path: '/console' });
  try {
    const parsed = JSON.parse(raw) as { kind?: unknown; text?: unknown };
    if ((parsed.kind === 'ok' || parsed.kind === 'bad') && typeof parsed.text === 'string') return { kind: parsed.kind, text: parsed.text };
  } catch {
    // a cookie we did not write: ignore it
  }
  return null;
}
