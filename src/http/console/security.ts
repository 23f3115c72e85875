import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { randomBase64Url, safeEqual } from '../../lib/crypto.js';

/**
 * The console's browser-facing protections, for every /console response:
 * - a CSP that allows only the console's own scripts and styles (no inline script, no eval, no CDN), no
 *   framing, forms posting only here;
 * - CSRF: a random per-browser seed in an HttpOnly SameSite=Strict cookie; every form carries a token
 *   signed over that seed (htmx sends it as X-CSRF-Token); a state-changing request without a matching token,
 *   or from another origin, is refused before its handler runs.
 */
export const CSRF_COOKIE = 'mcs_csrf';
export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';
const CSRF_PURPOSE = 'console-csrf';

export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * The CSP with forms also allowed to end at these origins: browsers check form-action against every
 * redirect of the submission, so a form whose answer redirects off the site (the app install, to the
 * partner's redirect URI) needs its page to name the target. Origins only (scheme, host, port).
 */
export function cspWithFormTargets(origins: readonly string[]): string {
  return CSP.replace("form-action 'self'", ["form-action 'self'", ...origins].join(' '));
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The token forms of this response carry (empty outside /console). */
    csrfToken: string;
  }
}

/** Secure cookies whenever the browser reached us over https (directly or through a trusted proxy), and always in production. */
export function cookieSecure(deps: Deps, request: FastifyRequest): boolean {
  return deps.config.production || request.protocol === 'https';
}

export function registerConsoleSecurity(scope: FastifyInstance, deps: Deps): void {
  scope.decorateRequest('csrfToken', '');
  scope.addHook('onRequest', async (request, reply) => {
    setSecurityHeaders(reply);
    let seed = request.cookies[CSRF_COOKIE];
    if (!seed || seed.length < 20 || seed.length > 100) {
      seed = randomBase64Url(24);
      reply.setCookie(CSRF_COOKIE, seed, { path: '/console', httpOnly: true, sameSite: 'strict', secure: cookieSecure(deps, request) });
      // A browser without the cookie cannot have a valid token yet: this request's check fails below.
      request.cookies[CSRF_COOKIE] = '';
    }
    request.csrfToken = deps.signer.sign(CSRF_PURPOSE, seed);
  });
  scope.addHook('preHandler', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const problem = csrfProblem(deps, request);
    if (problem) {
      request.log.warn({ reason: problem }, 'console request refused by the CSRF check');
      return reply.code(403).type('text/html; charset=utf-8').send(csrfRefusalPage(problem));
    }
  });
}

/**
 * The headers of every console answer. The error pages set them too: a request refused before this scope's
 * hooks ran (a URL that does not decode, a body over the limit, one the HTTP parser refused) still gets them.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
};

export function setSecurityHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
}

function submittedToken(request: FastifyRequest): string {
  const header = request.headers[CSRF_HEADER];
  if (typeof header === 'string' && header !== '') return header;
  const body = request.body as Record<string, unknown> | null | undefined;
  const field = body && typeof body === 'object' ? body[CSRF_FIELD] : undefined;
  if (typeof field === 'string') return field;
  // Multipart uploads are read by their handler, after this check: their forms carry the token in the URL.
  const query = request.query as Record<string, unknown> | undefined;
  const inQuery = query?.[CSRF_FIELD];
  return typeof inQuery === 'string' ? inQuery : '';
}

/** Why a state-changing console request is refused, or null when it passes. */
function csrfProblem(deps: Deps, request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return 'the Origin header is not a URL';
    }
    if (host !== request.host) return `a request from another origin (${origin})`;
  }
  const seed = request.cookies[CSRF_COOKIE] ?? '';
  if (seed === '') return 'no CSRF cookie (cookies blocked, or the page is older than the browser session)';
  const token = submittedToken(request);
  const signedSeed = token === '' ? null : deps.signer.verify(CSRF_PURPOSE, token);
  if (typeof signedSeed !== 'string' || !safeEqual(signedSeed, seed)) return 'the form token is missing or does not match';
  return null;
}

function csrfRefusalPage(problem: string): string {
  const text = problem.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Refused</title></head><body><main><h1>This form was refused</h1><p>${text}.</p><p>Go back, reload the page and submit it again.</p><p><a href="/console">Console home</a></p></main></body></html>`;
}
