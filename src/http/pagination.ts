import type { FastifyRequest } from 'fastify';
import { invalidArgument } from '../domain/errors.js';
import type { Signer } from '../lib/signer.js';

/**
 * Opaque, signed page tokens (resolutions §1). v2 cursors carry only the keyset position; v1 nextTokens
 * also carry the filters, because a v1 client GETs the next URL as is. Both are bound to their route.
 */
export function encodeCursor(signer: Signer, route: string, state: unknown): string {
  return signer.sign(`cursor:${route}`, state);
}

export function decodeV2Cursor<T>(signer: Signer, route: string, cursor: string | undefined, check: (v: unknown) => v is T): T | null {
  if (cursor === undefined || cursor === '') return null;
  const value = signer.verify(`cursor:${route}`, cursor);
  if (value === null || !check(value)) {
    throw invalidArgument('invalid cursor: pass back the nextCursor of the previous page unchanged');
  }
  return value;
}

export function decodeV1Token<T>(signer: Signer, route: string, token: string, check: (v: unknown) => v is T): T {
  const value = signer.verify(`cursor:${route}`, token);
  if (value === null || !check(value)) {
    throw invalidArgument('invalid nextToken: GET the nextToken URL of the previous page unchanged');
  }
  return value;
}

/**
 * Where this service is reached: PUBLIC_BASE_URL, else the request's Host (resolutions §7 "Operation").
 * Fastify's request.host and .protocol follow X-Forwarded-Host/-Proto only when TRUST_PROXY trusts the
 * peer that sent them, so a client cannot point the next-page URLs at another host.
 */
export function publicBaseUrl(request: FastifyRequest, configured: string | null): string {
  if (configured) return configured;
  return `${request.protocol}://${request.host || 'localhost'}`;
}

/** The absolute v1 next-page URL: `<base><path>?nextToken=<token>`. */
export function v1NextUrl(request: FastifyRequest, configured: string | null, path: string, token: string): string {
  return `${publicBaseUrl(request, configured)}${path}?nextToken=${encodeURIComponent(token)}`;
}

/**
 * The v1 `pagination` object: when there is a next position, an absolute URL whose nextToken carries
 * `state` (filters and keyset position) signed for `route`; otherwise hasNext false and "".
 */
export function v1Pagination(
  request: FastifyRequest,
  signer: Signer,
  configuredBaseUrl: string | null,
  route: string,
  state: unknown | null,
): { hasNext: boolean; nextToken: string } {
  if (state === null) return { hasNext: false, nextToken: '' };
  return { hasNext: true, nextToken: v1NextUrl(request, configuredBaseUrl, route, encodeCursor(signer, route, state)) };
}

/** v2 pageSize rule: ≤0 or absent uses the default, above the maximum is lowered (never rejected). */
export function clampPageSize(value: number | undefined, fallback = 50, max = 500): number {
  if (value === undefined || !Number.isFinite(value) || value <= 0) return fallback;
  return Math.min(Math.floor(value), max);
}
