import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { DELIVERY_ID_HEADER, signCallback } from './signing.js';
import { PUBLIC_ONLY, nonPublicPhrase, refuseTargetBeforeResolve } from '../accounts/target-safety.js';
import type { CallbackOutcome, CallbackRequest, CallbackSendOptions, CallbackSender } from './transport.js';

/** Resolutions §5: connect 5 s, total 15 s; response bodies are capped so a partner cannot flood a worker. */
export const DEFAULT_SEND_OPTIONS: Omit<CallbackSendOptions, 'now' | 'allowPrivate'> = {
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 15_000,
  maxResponseBytes: 16 * 1024,
};

/** Longest Retry-After honoured (a day): a longer one is treated as absent and the schedule applies. */
const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;

/** Resolves a host name to every address it has (tests inject one to point a public name at loopback). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

class RefusedTarget extends Error {}

/** Seconds from a Retry-After value (delta-seconds or an HTTP date), or null when absent or insane. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  const trimmed = v.trim();
  let seconds: number;
  if (/^\d+$/.test(trimmed)) seconds = Number(trimmed);
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    seconds = Math.ceil((at - now.getTime()) / 1000);
  }
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_RETRY_AFTER_SECONDS) return null;
  return seconds;
}

/** What a non-200 answer said: the v2 error's code and message when the body is one, else the status alone. */
export function describeFailure(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { code?: unknown; message?: unknown };
    if (typeof parsed === 'object' && parsed !== null && (typeof parsed.code === 'number' || typeof parsed.message === 'string')) {
      return `HTTP ${status}: code ${String(parsed.code ?? '?')}: ${String(parsed.message ?? '')}`.slice(0, 1000);
    }
  } catch {
    // not JSON: the status says it all; the capped body is kept on the attempt
  }
  return `HTTP ${status}`;
}

/**
 * The production sender: one signed HTTP call, no redirects followed, every resolved address checked
 * before connecting (the check runs in the socket's own lookup, so the address connected to is the address
 * checked: no second resolution an attacker's DNS could answer differently). Never throws for a
 * partner-side failure; secrets and signatures are never logged (nothing here logs at all).
 */
export function createCallbackSender(options: { resolve?: Resolver } = {}): CallbackSender {
  const resolve = options.resolve ?? systemResolver;
  return (request: CallbackRequest, opts: CallbackSendOptions) => sendOnce(request, opts, resolve);
}

function sendOnce(request: CallbackRequest, opts: CallbackSendOptions, resolve: Resolver): Promise<CallbackOutcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const fail = (error: string, refused = false, status: number | null = null, body = ''): CallbackOutcome => ({
    ok: false,
    status,
    latencyMs: latency(),
    body,
    error,
    retryAfterSeconds: null,
    refused,
  });

  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return Promise.resolve(fail(`the callback URL is not valid`, true));
  }
  const refusal = refuseTargetBeforeResolve(url, opts.allowPrivate);
  if (refusal) return Promise.resolve(fail(`refused target: ${refusal}`, true));

  // Signed over exactly what goes on the request line.
  const pathWithQuery = `${url.pathname}${url.search}`;
  const signed = signCallback(request.signingSecrets, opts.now, request.method, pathWithQuery, request.body);
  const headers: Record<string, string> = {
    ...signed,
    [DELIVERY_ID_HEADER]: request.deliveryId,
    'User-Agent': 'multichannel-commerce-service-callbacks',
    Accept: 'application/json',
  };
  if (request.body) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(request.body.length);
  }

  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolve(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw new Error(`${hostname} has no address`);
        if (!opts.allowPrivate) {
          for (const a of addresses) {
            const phrase = nonPublicPhrase(a.address);
            if (phrase) throw new RefusedTarget(`refused target: ${hostname} resolves to ${a.address}, which ${phrase}; ${PUBLIC_ONLY}`);
          }
        }
        if (lookupOptions.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      })
      .catch((error: unknown) => callback(error as NodeJS.ErrnoException, '', 0));
  };

  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<CallbackOutcome>((done) => {
    let settled = false;
    const finish = (outcome: CallbackOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(totalTimer);
      done(outcome);
    };
    const req = transport.request({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || undefined,
      method: request.method,
      path: pathWithQuery,
      headers,
      lookup,
      // A fresh connection per call: a pooled socket could have been opened to an address checked for
      // another delivery, and partners are many while calls to each are few.
      agent: false,
    });
    const totalTimer = setTimeout(() => req.destroy(new Error(`timed out after ${opts.totalTimeoutMs} ms`)), opts.totalTimeoutMs);
    req.on('socket', (socket) => {
      const connectTimer = setTimeout(() => req.destroy(new Error(`could not connect within ${opts.connectTimeoutMs} ms`)), opts.connectTimeoutMs);
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      socket.once('close', () => clearTimeout(connectTimer));
    });
    req.on('error', (error) => {
      if (error instanceof RefusedTarget) finish(fail(error.message, true));
      else finish(fail(error.message || String(error)));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      let capped = false;
      const complete = () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (status === 200) {
          finish({ ok: true, status, latencyMs: latency(), body, error: null, retryAfterSeconds: null, refused: false });
          return;
        }
        const error =
          status >= 300 && status < 400
            ? `HTTP ${status}: redirects are not followed${res.headers.location ? ` (Location: ${String(res.headers.location).slice(0, 300)})` : ''}`
            : describeFailure(status, body);
        const retryAfterSeconds = status === 429 || status === 503 ? parseRetryAfter(res.headers['retry-after'], opts.now) : null;
        finish({ ok: false, status, latencyMs: latency(), body, error, retryAfterSeconds, refused: false });
      };
      res.on('data', (chunk: Buffer) => {
        if (size >= opts.maxResponseBytes) return;
        const room = opts.maxResponseBytes - size;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        size += Math.min(chunk.length, room);
        // The cap is reached: stop reading (the rest never enters memory) and answer with what we have.
        if (size >= opts.maxResponseBytes) {
          capped = true;
          complete();
          res.destroy();
        }
      });
      res.on('end', complete);
      res.on('error', (error) => finish(fail(`the response broke off: ${error.message}`, false, status, Buffer.concat(chunks).toString('utf8'))));
      // A connection dropped before the end is a failure, not a short success (unless we stopped reading).
      res.on('close', () => (capped || res.complete ? complete() : finish(fail('the response broke off before its end', false, status))));
    });
    req.end(request.body ?? undefined);
  });
}
