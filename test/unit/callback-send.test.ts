import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { nextRetryDelaySeconds, MAX_DELIVERY_ATTEMPTS } from '../../src/domain/callbacks/schedule.js';
import { DEFAULT_SEND_OPTIONS, createCallbackSender, parseRetryAfter } from '../../src/domain/callbacks/send.js';
import { verifyCallback } from '@mcs/partner-client';
import { checkCallbackBaseUrl, nonPublicReason } from '../../src/domain/accounts/target-safety.js';
import type { CallbackRequest } from '../../src/domain/callbacks/transport.js';
import { AppError } from '../../src/domain/errors.js';

const SECRET = 'unit-secret';

describe('callback target safety', () => {
  it('refuses loopback, private, link-local, unspecified, CGNAT and IPv4-mapped addresses', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '::1', '::', 'fc00::1', 'fd12::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe']) {
      assert.ok(nonPublicReason(a), a);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) assert.equal(nonPublicReason(a), null, a);
  });

  it('refuses at registration http, literal private addresses and local names unless allowed, naming the field', () => {
    for (const url of ['http://partner.example/cb', 'https://127.0.0.1/cb', 'https://localhost/cb', 'https://[::1]/cb', 'https://10.0.0.5/', 'https://api.localhost/', 'https://169.254.169.254/']) {
      assert.throws(() => checkCallbackBaseUrl('callbackBaseUrl', url, false), (e: unknown) => e instanceof AppError && e.status === 400 && /callbackBaseUrl/.test(e.message), url);
      checkCallbackBaseUrl('callbackBaseUrl', url, true);
    }
    assert.throws(() => checkCallbackBaseUrl('callbackBaseUrl', 'ftp://x.example/', true), AppError);
    assert.throws(() => checkCallbackBaseUrl('callbackBaseUrl', 'https://x.example/cb?a=1', false), AppError);
    checkCallbackBaseUrl('callbackBaseUrl', 'https://partner.example/callbacks', false);
  });
});

describe('callback retry schedule (resolutions §5)', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then stops; a longer Retry-After wins', () => {
    const delays = [];
    for (let n = 1; n < MAX_DELIVERY_ATTEMPTS; n++) delays.push(nextRetryDelaySeconds(n, null));
    assert.deepEqual(delays, [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    assert.equal(nextRetryDelaySeconds(MAX_DELIVERY_ATTEMPTS, null), null);
    assert.equal(nextRetryDelaySeconds(1, 120), 120);
    assert.equal(nextRetryDelaySeconds(2, 120), 300);
    assert.equal(parseRetryAfter('120', new Date()), 120);
    assert.equal(parseRetryAfter(new Date(Date.parse('2026-01-01T00:01:00Z')).toUTCString(), new Date('2026-01-01T00:00:00Z')), 60);
    assert.equal(parseRetryAfter('soon', new Date()), null);
  });
});

describe('callback sender', () => {
  let server: http.Server;
  let base: string;
  const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        const path = req.url!;
        if (path.endsWith('/big')) {
          res.writeHead(200);
          res.end(Buffer.alloc(1024 * 1024, 'x'));
        } else if (path.endsWith('/redirect')) {
          res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
        } else if (path.endsWith('/busy')) {
          res.writeHead(503, { 'retry-after': '600', 'content-type': 'application/json' }).end('{"code":13,"message":"channel API unanswered","details":[]}');
        } else if (path.endsWith('/hang')) {
          // never answers
        } else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/prefix`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = createCallbackSender();
  const request = (path: string, body: string | null = null): CallbackRequest => ({
    method: body ? 'POST' : 'GET',
    url: `${base}${path}`,
    body: body ? Buffer.from(body) : null,
    deliveryId: 'd-1',
    signingSecrets: [SECRET],
  });
  const options = { ...DEFAULT_SEND_OPTIONS, allowPrivate: true, now: new Date() };

  it('sends the signed headers, the delivery id and the JSON body to the base path prefix', async () => {
    const outcome = await send(request('/ingestion/initiate?x=1', '{"a":1}'), options);
    assert.equal(outcome.ok, true);
    const got = seen.at(-1)!;
    assert.equal(got.url, '/prefix/ingestion/initiate?x=1');
    assert.equal(got.headers['x-service-delivery-id'], 'd-1');
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(verifyCallback({ headers: got.headers, method: got.method, pathWithQuery: got.url, rawBody: got.body, secrets: [SECRET], now: new Date() }).ok, true);
  });

  it('reads a response body only up to the cap', async () => {
    const outcome = await send(request('/big'), { ...options, maxResponseBytes: 1000 });
    assert.equal(outcome.ok, true);
    assert.equal(outcome.body.length, 1000);
  });

  it('does not follow a redirect: a 3xx is a failure', async () => {
    const before = seen.length;
    const outcome = await send(request('/redirect'), options);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.status, 302);
    assert.match(outcome.error!, /redirects are not followed/);
    assert.equal(seen.length, before + 1);
  });

  it('records the v2 error and the Retry-After of a 503', async () => {
    const outcome = await send(request('/busy'), options);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.retryAfterSeconds, 600);
    assert.match(outcome.error!, /HTTP 503: code 13: channel API unanswered/);
  });

  it('gives up after the total timeout', async () => {
    const outcome = await send(request('/hang'), { ...options, totalTimeoutMs: 300 });
    assert.equal(outcome.ok, false);
    assert.equal(outcome.status, null);
    assert.match(outcome.error!, /timed out/);
  });

  it('gives up after the connect timeout when the connection is never established (TLS never answers)', async () => {
    // A TCP listener that accepts and then stays silent: the TLS handshake never completes, which is what
    // the connect timer waits for on https (a plain TCP connect on loopback always succeeds at once).
    const accepted: net.Socket[] = [];
    const silent = net.createServer((socket) => void accepted.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const started = performance.now();
      const outcome = await send({ ...request('/x'), url: `https://127.0.0.1:${port}/x` }, { ...options, connectTimeoutMs: 200, totalTimeoutMs: 10_000 });
      assert.equal(outcome.ok, false);
      assert.equal(outcome.status, null);
      assert.match(outcome.error!, /could not connect within 200 ms/);
      assert.ok(performance.now() - started < 5000, 'the connect timeout, not the total one, ended it');
    } finally {
      for (const socket of accepted) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('without allowPrivate refuses http, literal loopback, and a name resolving to loopback, sending nothing', async () => {
    const before = seen.length;
    const strict = { ...options, allowPrivate: false };
    const plain = await send(request('/x'), strict);
    assert.equal(plain.refused, true);
    const port = (server.address() as AddressInfo).port;
    // A public-looking name whose DNS answers 127.0.0.1: refused on the resolved address, before connecting.
    const rebinding = createCallbackSender({ resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const named = await rebinding({ ...request('/x'), url: `https://partner.example:${port}/x` }, strict);
    assert.equal(named.ok, false);
    assert.equal(named.refused, true);
    assert.match(named.error!, /resolves to 127\.0\.0\.1/);
    const literal = await send({ ...request('/x'), url: `https://127.0.0.1:${port}/x` }, strict);
    assert.equal(literal.refused, true);
    assert.equal(seen.length, before);
  });
});
