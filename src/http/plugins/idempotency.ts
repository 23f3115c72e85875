import type { App } from '../types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { conflict, invalidArgument } from '../../domain/errors.js';
import type { Deps } from '../../deps.js';
import { isUniqueViolation } from '../../db/tx.js';
import { sha256Hex } from '../../lib/crypto.js';

/**
 * Optional `Idempotency-Key` on any partner POST (resolutions §0): a replay with the same key and body
 * returns the stored response; the same key with another body is a conflict. Keys live 24 hours.
 */
const KEY_TTL_MS = 24 * 60 * 60 * 1000;
// A request that never finished (process crash) stops blocking its key after this long.
const PENDING_TAKEOVER_MS = 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { tokenId: number; key: string } | null;
  }
}

/** JSON with object keys sorted, so a client that re-serialises the same body in another order still matches. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function requestHash(request: FastifyRequest): string {
  return sha256Hex(`${request.method}\n${request.url}\n${canonicalJson(request.body)}`);
}

export function registerIdempotency(app: App, deps: Deps) {
  const db = deps.db.db;
  app.decorateRequest('idempotency', null);

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined || !request.principal) return;
    const key = Array.isArray(header) ? header[0]! : header;
    if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
      throw invalidArgument('Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    const tokenId = request.principal.tokenId;
    const now = deps.clock.now();
    const hash = requestHash(request);
    const row = {
      token_id: tokenId,
      idem_key: key,
      account_id: request.principal.accountId,
      request_hash: hash,
      state: 'PENDING',
      status_code: null,
      response_body: null,
      content_type: null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + KEY_TTL_MS).toISOString(),
    };
    try {
      await db.insertInto('idempotency_keys').values(row).execute();
      request.idempotency = { tokenId, key };
      return;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const existing = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('token_id', '=', tokenId)
      .where('idem_key', '=', key)
      .executeTakeFirst();
    const stale =
      !existing ||
      existing.expires_at <= now.toISOString() ||
      (existing.state === 'PENDING' && Date.parse(existing.created_at) + PENDING_TAKEOVER_MS < now.getTime());
    if (stale) {
      // Take the key over: replace the expired or abandoned record with ours.
      await db.deleteFrom('idempotency_keys').where('token_id', '=', tokenId).where('idem_key', '=', key).execute();
      await db.insertInto('idempotency_keys').values(row).execute();
      request.idempotency = { tokenId, key };
      return;
    }
    if (existing.request_hash !== hash) {
      throw conflict('Idempotency-Key was already used with a different request; use a new key');
    }
    if (existing.state !== 'COMPLETE') {
      throw conflict('a request with this Idempotency-Key is still being processed; retry shortly');
    }
    reply.header('Idempotency-Replayed', 'true');
    reply.code(existing.status_code ?? 200);
    if (existing.content_type) reply.type(existing.content_type);
    return reply.serializer((p: unknown) => String(p)).send(existing.response_body ?? '');
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    const where = db
      .deleteFrom('idempotency_keys')
      .where('token_id', '=', claim.tokenId)
      .where('idem_key', '=', claim.key);
    // Server errors are not remembered: the partner may retry them with the same key.
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await where.execute();
      return payload;
    }
    await db
      .updateTable('idempotency_keys')
      .set({
        state: 'COMPLETE',
        status_code: reply.statusCode,
        response_body: payload,
        content_type: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
      })
      .where('token_id', '=', claim.tokenId)
      .where('idem_key', '=', claim.key)
      .execute();
    return payload;
  };

  // Only partner POST routes take the key; GETs (the hot reads) do not pay for these hooks.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = route.config as { auth?: unknown } | undefined;
    if (!methods.includes('POST') || !config?.auth) return;
    const asList = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
    route.preHandler = [...asList(route.preHandler), preHandler] as typeof route.preHandler;
    route.onSend = [...asList(route.onSend), onSend] as typeof route.onSend;
  });
}
