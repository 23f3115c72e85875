import type { App } from '../types.js';
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { conflict, invalidArgument } from '../../domain/errors.js';
import type { Deps } from '../../deps.js';
import { runWithEffectJournal, type EffectJournal } from '../../db/effect-journal.js';
import { isUniqueViolation, withTx, type Db } from '../../db/tx.js';
import { sha256Hex } from '../../lib/crypto.js';

/**
 * Optional `Idempotency-Key` on any partner POST (resolutions §0): a replay with the same key and body
 * returns the stored response; the same key with another body is a conflict. Keys live 24 hours.
 *
 * States of a key: PENDING (claimed by the request whose claim_id it carries), COMPLETE (the response is
 * stored and replayed), RETRYABLE (the request answered 5xx after some of its transactions committed: the
 * next retry takes it over at once). The handler runs under an effect journal (src/db/effect-journal.ts):
 * each of its transactions records in itself that it committed, so a retry that takes over a key whose
 * request crashed, or failed with a 5xx, replays those transactions' results instead of applying them again.
 */
const KEY_TTL_MS = 24 * 60 * 60 * 1000;
// A request that never finished (process crash) stops blocking its key after this long.
const PENDING_TAKEOVER_MS = 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: EffectJournal | null;
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
  // An upload's bytes are not in request.body: its digest stands for them (src/http/plugins/uploads.ts).
  const file = request.uploadDigest ? `\nfile:${request.uploadDigest}` : '';
  return sha256Hex(`${request.method}\n${request.url}\n${canonicalJson(request.body)}${file}`);
}

/** Deletes a key and the effects recorded under it (expired keys). */
async function deleteKey(db: Db, tokenId: number, key: string) {
  await withTx(db, async (tx) => {
    await tx.deleteFrom('idempotency_effects').where('token_id', '=', tokenId).where('idem_key', '=', key).execute();
    await tx.deleteFrom('idempotency_keys').where('token_id', '=', tokenId).where('idem_key', '=', key).execute();
  });
}

const stillRunning = () => conflict('a request with this Idempotency-Key is still being processed; retry shortly');

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
    const accountId = request.principal.accountId;
    const now = deps.clock.now();
    const hash = requestHash(request);
    const claimId = randomUUID();
    const expiresAt = new Date(now.getTime() + KEY_TTL_MS).toISOString();
    const journal = (replay: Map<number, string>): EffectJournal => ({
      tokenId,
      key,
      accountId,
      claimId,
      expiresAt,
      replay,
      next: 0,
      effects: 0,
      closed: false,
      log: request.log,
      conflict,
    });
    const row = {
      token_id: tokenId,
      idem_key: key,
      account_id: accountId,
      request_hash: hash,
      state: 'PENDING',
      status_code: null,
      response_body: null,
      content_type: null,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      claim_id: claimId,
    };
    const claimFresh = async (): Promise<boolean> => {
      try {
        await db.insertInto('idempotency_keys').values(row).execute();
        request.idempotency = journal(new Map());
        return true;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        return false;
      }
    };
    if (await claimFresh()) return;
    const existing = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('token_id', '=', tokenId)
      .where('idem_key', '=', key)
      .executeTakeFirst();
    if (!existing || existing.expires_at <= now.toISOString()) {
      // Expired (or deleted meanwhile): the key starts afresh, forgetting what it did a day ago.
      if (existing) await deleteKey(db, tokenId, key);
      if (await claimFresh()) return;
      throw stillRunning();
    }
    if (existing.request_hash !== hash) {
      throw conflict('Idempotency-Key was already used with a different request; use a new key');
    }
    if (existing.state === 'COMPLETE') {
      reply.header('Idempotency-Replayed', 'true');
      reply.code(existing.status_code ?? 200);
      if (existing.content_type) reply.type(existing.content_type);
      return reply.serializer((p: unknown) => String(p)).send(existing.response_body ?? '');
    }
    const abandoned =
      existing.state === 'RETRYABLE' || Date.parse(existing.created_at) + PENDING_TAKEOVER_MS < now.getTime();
    if (!abandoned) throw stillRunning();
    // Take the key over. Conditional on the claim we read, so of two retries one wins; the old owner's
    // transactions can no longer commit (their effect record checks the claim), and the ones it did
    // commit are replayed from their records, never run again.
    const takeover = await db
      .updateTable('idempotency_keys')
      .set({ state: 'PENDING', claim_id: claimId, created_at: now.toISOString() })
      .where('token_id', '=', tokenId)
      .where('idem_key', '=', key)
      .where('state', '=', existing.state)
      .where('created_at', '=', existing.created_at)
      .where((eb) => (existing.claim_id === null ? eb('claim_id', 'is', null) : eb('claim_id', '=', existing.claim_id)))
      .executeTakeFirst();
    if (Number(takeover.numUpdatedRows) !== 1) throw stillRunning();
    const effects = await db
      .selectFrom('idempotency_effects')
      .select(['seq', 'result'])
      .where('token_id', '=', tokenId)
      .where('idem_key', '=', key)
      .execute();
    request.idempotency = journal(new Map(effects.map((e) => [e.seq, e.result])));
  };

  /** Stores the outcome; a failure here is logged, never turned into another answer (the effects are safe). */
  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    claim.closed = true;
    try {
      await storeOutcome(db, claim, reply.statusCode, payload, String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'));
    } catch (error) {
      request.log.warn({ err: error }, 'could not store the Idempotency-Key outcome; a retry replays its committed effects');
    }
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
    // The handler runs under the key's effect journal, which its withTx calls consult.
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function (this: unknown, request: FastifyRequest, reply: FastifyReply) {
      const journal = request.idempotency;
      if (!journal) return handler.call(this as never, request, reply);
      return runWithEffectJournal(journal, () => handler.call(this as never, request, reply));
    } as typeof route.handler;
  });
}

async function storeOutcome(db: Db, claim: EffectJournal, status: number, payload: unknown, contentType: string) {
  const mine = { token_id: claim.tokenId, idem_key: claim.key, claim_id: claim.claimId };
  if (status >= 500 || typeof payload !== 'string') {
    // Server errors are not remembered: the partner may retry them with the same key. When some of the
    // request's transactions committed, the retry must still not run those again: it takes the key over at
    // once (RETRYABLE) and replays them.
    if (claim.effects === 0 && claim.replay.size === 0) {
      await db
        .deleteFrom('idempotency_keys')
        .where('token_id', '=', mine.token_id)
        .where('idem_key', '=', mine.idem_key)
        .where('claim_id', '=', mine.claim_id)
        .where('state', '=', 'PENDING')
        .execute();
    } else {
      await db
        .updateTable('idempotency_keys')
        .set({ state: 'RETRYABLE' })
        .where('token_id', '=', mine.token_id)
        .where('idem_key', '=', mine.idem_key)
        .where('claim_id', '=', mine.claim_id)
        .where('state', '=', 'PENDING')
        .execute();
    }
    return;
  }
  await withTx(db, async (tx) => {
    const stored = await tx
      .updateTable('idempotency_keys')
      .set({ state: 'COMPLETE', status_code: status, response_body: payload, content_type: contentType, claim_id: null })
      .where('token_id', '=', mine.token_id)
      .where('idem_key', '=', mine.idem_key)
      .where('claim_id', '=', mine.claim_id)
      .where('state', '=', 'PENDING')
      .executeTakeFirst();
    // Taken over meanwhile: the new owner stores its own outcome.
    if (Number(stored.numUpdatedRows) !== 1) return;
    // The response replays from now on; the effect records are no longer needed.
    await tx.deleteFrom('idempotency_effects').where('token_id', '=', mine.token_id).where('idem_key', '=', mine.idem_key).execute();
  });
}
