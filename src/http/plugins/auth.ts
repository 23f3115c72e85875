import type { App } from '../types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticateToken } from '../../domain/accounts/tokens.js';
import { hasAnyScope, type Principal, type Scope } from '../../domain/accounts/principal.js';
import { AppError, permissionDenied, unauthenticated } from '../../domain/errors.js';
import type { Deps } from '../../deps.js';
import { safeEqual } from '../../lib/crypto.js';
import type { RateDecision } from '../../lib/rate-limit.js';

/**
 * What a route needs from its caller, declared in the route's config:
 * - scopes: any one of these (resolutions §2); omitted = any valid token;
 * - binding: the token must belong to a storefront, a shipping/3PL integration, or an inventory/3PL one.
 */
export interface AuthRequirement {
  scopes?: Scope[];
  binding?: 'storefront' | 'shipping' | 'inventory';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
    admin?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The caller, for handlers of routes that declared `auth` (the hook guarantees it is set). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthenticated();
  return request.principal;
}

/** Accepts `<token>` or `Bearer <token>`, the scheme word in any case (resolutions §0). */
export function tokenFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const trimmed = header.trim();
  const match = /^bearer\s+(.+)$/i.exec(trimmed);
  const token = (match ? match[1]! : trimmed).trim();
  return token === '' || /\s/.test(token) ? null : token;
}

function checkBinding(principal: Principal, binding: AuthRequirement['binding']): void {
  if (binding === 'storefront' && principal.storefrontId === null) {
    throw permissionDenied('this route needs a token of a sales-channel installation (a storefront)');
  }
  if (binding === 'shipping' && !(principal.kind === 'SHIPPING' || principal.kind === 'THIRD_PARTY_LOGISTICS')) {
    throw permissionDenied('this route needs a token of a shipping or third-party-logistics integration');
  }
  if (binding === 'inventory' && !(principal.kind === 'INVENTORY' || principal.kind === 'THIRD_PARTY_LOGISTICS')) {
    throw permissionDenied('this route needs a token of an inventory or third-party-logistics integration');
  }
}

/** The protection space named in Bearer challenges (RFC 6750 §3). */
export const BEARER_REALM = 'Multichannel Commerce Service';

/**
 * RFC 6750 §3.1: a request with no credentials at all gets a challenge without an error code. The error
 * renderer keeps a challenge set here; its default for other 401s is `Bearer error="invalid_token"`.
 */
function challengeIfNoCredentials(request: FastifyRequest, reply: FastifyReply): void {
  if ((request.headers.authorization ?? '').trim() === '') reply.header('WWW-Authenticate', `Bearer realm="${BEARER_REALM}"`);
}

async function authenticate(deps: Deps, request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
  const token = tokenFromHeader(request.headers.authorization);
  if (!token) {
    challengeIfNoCredentials(request, reply);
    throw unauthenticated('missing access token: send Authorization: Bearer <token>');
  }
  const principal = await authenticateToken(deps.db, token);
  if (!principal) throw unauthenticated('access token is invalid or revoked');
  request.principal = principal;
  return principal;
}

function authorize(principal: Principal, requirement: AuthRequirement, reply: FastifyReply): void {
  if (requirement.scopes && requirement.scopes.length > 0 && !hasAnyScope(principal, requirement.scopes)) {
    // RFC 6750 §3.1: the scopes that would do, space-separated, besides the version's error body.
    reply.header('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${requirement.scopes.join(' ')}"`);
    throw permissionDenied(`this route needs one of the scopes: ${requirement.scopes.join(', ')}`);
  }
  checkBinding(principal, requirement.binding);
}

function isLoopback(ip: string | undefined): boolean {
  return ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1';
}

/** A request relayed by a proxy on this host looks like loopback but comes from elsewhere. */
function isProxied(request: FastifyRequest): boolean {
  const h = request.headers;
  return (
    h['x-forwarded-for'] !== undefined ||
    h['x-forwarded-host'] !== undefined ||
    h['x-forwarded-proto'] !== undefined ||
    h['x-real-ip'] !== undefined ||
    h.forwarded !== undefined
  );
}

/**
 * /admin: Bearer ADMIN_TOKEN, compared in constant time. In development without ADMIN_TOKEN the operator
 * API answers direct loopback callers only, so a sandbox on a laptop works without setup but is never
 * exposed. "Direct" is judged on the socket's peer, not request.ip (which TRUST_PROXY lets
 * X-Forwarded-For decide), and never when TRUST_PROXY is set: a proxy is then declared, and a loopback
 * peer may be that proxy relaying anyone, with or without forwarding headers.
 */
function authorizeAdmin(deps: Deps, request: FastifyRequest, reply: FastifyReply): void {
  const expected = deps.config.adminToken;
  if (expected === null) {
    const direct = deps.config.trustProxy === false && isLoopback(request.socket?.remoteAddress) && !isProxied(request);
    if (!deps.config.production && direct) return;
    throw unauthenticated(
      deps.config.trustProxy === false
        ? 'the operator API needs ADMIN_TOKEN to be configured'
        : 'the operator API needs ADMIN_TOKEN to be configured (TRUST_PROXY is set, so no caller counts as local)',
    );
  }
  const token = tokenFromHeader(request.headers.authorization);
  if (!token || !safeEqual(token, expected)) {
    challengeIfNoCredentials(request, reply);
    throw unauthenticated('missing or invalid operator token');
  }
}

export function registerAuth(app: App, deps: Deps) {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (config.admin) {
      authorizeAdmin(deps, request, reply);
      return;
    }
    if (!config.auth) return;
    const principal = await authenticate(deps, request, reply);
    // Counted before the scope check, so a 403 also spends a request and carries the RateLimit headers.
    await applyRateLimit(deps, request, reply);
    authorize(principal, config.auth, reply);
  });
}

async function applyRateLimit(deps: Deps, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!deps.rateLimiter || !request.principal) return;
  let decision: RateDecision;
  try {
    decision = await deps.rateLimiter.take(`t${request.principal.tokenId}`);
  } catch (error) {
    // The shared store (Redis) is unreachable: serve unlimited rather than fail every request.
    request.log.warn({ err: error }, 'rate limiter unavailable; request not limited');
    return;
  }
  reply.header('RateLimit-Limit', String(decision.limit));
  reply.header('RateLimit-Remaining', String(decision.remaining));
  reply.header('RateLimit-Reset', String(decision.resetSeconds));
  if (!decision.allowed) {
    deps.metrics.rateLimitRefusals.inc();
    reply.header('Retry-After', String(decision.retryAfterSeconds));
    throw new AppError(
      'RESOURCE_EXHAUSTED',
      `rate limit exceeded: at most ${deps.config.rateLimitRps} requests per second with bursts of ${decision.limit}; retry after ${decision.retryAfterSeconds}s`,
    );
  }
}
