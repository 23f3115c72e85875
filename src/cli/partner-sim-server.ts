/**
 * A local sales channel for developers and tests: receives the three callbacks of document 6.1 and any event
 * nudge, verifies each with the partner client's verifyCallback (5.5) exactly as a partner would, logs one
 * line per call and answers. `npm run cli -- partner-sim` runs it (src/cli/partner-sim.ts); tests start it
 * in-process with startPartnerSim.
 *
 * It imports the partner client package, which ships TypeScript source: keep this module out of the static
 * import graph of src/main.ts (the command loads it on demand), so the compiled server never loads it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { callbackRejection, verifyCallback, type VerifyFailure } from '@mcs/partner-client';

/** One check of the storefront status answer (document 2.20). */
export interface SimCheck {
  name: string;
  state: 'CHECK_STATE_PASS' | 'CHECK_STATE_WARNING' | 'CHECK_STATE_FAIL';
  stateShortDescription: string;
  details: string;
}

/** What the sim answers to every status call unless told otherwise: one PASS and one WARNING. */
export const DEFAULT_CHECKS: readonly SimCheck[] = [
  { name: 'credentials', state: 'CHECK_STATE_PASS', stateShortDescription: 'the signed call verified', details: '' },
  { name: 'catalog-feed', state: 'CHECK_STATE_WARNING', stateShortDescription: 'no listings ingested yet', details: 'partner-sim answers this for every storefront' },
];

/** One call as the sim saw it. */
export interface SimCall {
  method: string;
  /** The path with its query exactly as received (what was signed). */
  url: string;
  deliveryId: string;
  /** Which callback it was, or null when the path matched none (answered 404). */
  kind: 'ingestion-initiate' | 'storefront-status' | 'delete-configuration' | 'nudge' | null;
  verified: boolean;
  /** Why verification failed; null when it passed. */
  rejection: VerifyFailure | null;
  status: number;
  body: Buffer;
  json: unknown;
}

export interface PartnerSimOptions {
  port?: number;
  host?: string;
  /** The app's callback signing secrets: the current one, and the previous one during a rotation. */
  secrets: readonly string[];
  /** The path of the registered callback base URL (e.g. `/callbacks`); calls outside it answer 404. */
  basePath?: string;
  checks?: readonly SimCheck[];
  /** The clock verification compares timestamps with (tests pass the service's test clock). */
  now?: () => Date;
  /** Where the one-line-per-call log goes (default: nowhere). */
  log?: (line: string) => void;
  /** Request bodies larger than this are refused with 413 (a callback body is small). */
  maxBodyBytes?: number;
  /** Called with each call as it is answered (the benchmark times deliveries with it). */
  onCall?: (call: SimCall) => void;
}

export interface PartnerSim {
  /** http://host:port followed by the base path: what to register as the app's callbackBaseUrl. */
  callbackBaseUrl: string;
  port: number;
  calls: SimCall[];
  /** Replace the secrets (a rotation, or a wrong secret in a test). */
  setSecrets(secrets: readonly string[]): void;
  close(): Promise<void>;
}

type Route = { kind: NonNullable<SimCall['kind']>; status: number; body: unknown };

/** Which callback a verified call is, and the answer; null for none. The path is relative to the base path. */
function route(method: string, path: string, checks: readonly SimCheck[]): Route | null {
  if (method === 'POST' && path === '/ingestion/initiate') return { kind: 'ingestion-initiate', status: 200, body: {} };
  if (method === 'GET' && /^\/v2\/storefront\/status\/[^/]+$/.test(path)) return { kind: 'storefront-status', status: 200, body: { checks } };
  if (method === 'DELETE' && /^\/v2\/storefront\/configuration\/[^/]+$/.test(path)) return { kind: 'delete-configuration', status: 200, body: {} };
  // Event nudges go to paths the app subscribed; the sim takes any other POST as one.
  if (method === 'POST') return { kind: 'nudge', status: 200, body: {} };
  return null;
}

function normalizeBasePath(basePath: string | undefined): string {
  const trimmed = (basePath ?? '').replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function headerText(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  if (body.length === 0) return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A sim without a secret could verify nothing: refuse it up front rather than on the first call. */
function checkedSecrets(secrets: readonly string[]): string[] {
  const kept = secrets.filter((s) => s !== '');
  if (kept.length === 0) throw new Error('partner-sim needs the app\'s callback signing secret');
  return kept;
}

export async function startPartnerSim(options: PartnerSimOptions): Promise<PartnerSim> {
  let secrets = checkedSecrets(options.secrets);
  const basePath = normalizeBasePath(options.basePath);
  const checks = options.checks ?? DEFAULT_CHECKS;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const calls: SimCall[] = [];

  const server = http.createServer((req, res) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const deliveryId = headerText(req.headers['x-service-delivery-id']);
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const answer = (status: number, payload: unknown, call: Omit<SimCall, 'status' | 'method' | 'url' | 'deliveryId' | 'body'>, note: string) => {
        const recorded: SimCall = { method, url, deliveryId, body, status, ...call };
        calls.push(recorded);
        options.onCall?.(recorded);
        // Never the secret nor the signature: the method, path, delivery id and outcome are enough to debug.
        log(`${now().toISOString()} ${method} ${url} delivery=${deliveryId || '-'} ${note} -> ${status}`);
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (tooLarge) {
        answer(413, { code: 3, message: `body over ${maxBodyBytes} bytes`, details: [] }, { kind: null, verified: false, rejection: null, json: null }, 'refused (body too large)');
        return;
      }
      // 5.5 step (3): verify over the raw bytes, before any parsing.
      const result = verifyCallback({ secrets, headers: req.headers, method, pathWithQuery: url, rawBody: body, now: now() });
      if (!result.ok) {
        const rejection = callbackRejection();
        answer(rejection.status, rejection.body, { kind: null, verified: false, rejection: result.reason, json: null }, `rejected (${result.reason})`);
        return;
      }
      const path = url.split('?')[0] ?? url;
      const inBase = basePath === '' || path === basePath || path.startsWith(`${basePath}/`);
      const found = inBase ? route(method, path.slice(basePath.length), checks) : null;
      if (!found) {
        answer(404, { code: 5, message: `partner-sim has no ${method} ${path}`, details: [] }, { kind: null, verified: true, rejection: null, json: null }, 'verified, no such callback');
        return;
      }
      const json = parseJson(body);
      if (!json.ok) {
        answer(400, { code: 3, message: 'the body is not JSON', details: [] }, { kind: found.kind, verified: true, rejection: null, json: null }, `verified ${found.kind}, body not JSON`);
        return;
      }
      answer(found.status, found.body, { kind: found.kind, verified: true, rejection: null, json: json.value }, `verified ${found.kind}`);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    callbackBaseUrl: `http://${host}:${address.port}${basePath}`,
    port: address.port,
    calls,
    setSecrets(next) {
      secrets = checkedSecrets(next);
    },
    async close() {
      // Keep-alive connections from the service would hold close() open.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
