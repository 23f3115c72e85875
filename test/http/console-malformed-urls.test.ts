import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { admin, assertV1Error } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { logSink } from '../helpers/log-sink.js';
import { assertV2Error } from '../helpers/v2.js';

const PASSWORD = 'correct horse battery';
const SELLER = 'owner@shop.example';
const OPERATOR = 'ops@platform.example';

/** URLs under /console that do not decode: each is a 400 page, whoever asks. */
const MALFORMED: string[] = [
  // the query string
  '/console/login?next=%ff',
  '/console/login?next=%c3%28',
  '/console/login?next=%E0%A4%A',
  '/console/login?next=%ed%a0%80',
  '/console/login?next=%c0%af',
  '/console/login?%ff=1',
  '/console?next=%ff',
  '/console/orders?status=%c3%28',
  '/console/reports?page=%80',
  '/console/operator/jobs?state=%ff',
  '/console/operator/accounts?q=%fe%ff',
  '/console/no-such-page?x=%ff',
  // the path and its parameters
  '/console/%ff',
  '/console/reports/%ff',
  '/console/reports/1%c3%28/errors',
  '/console/reports/validation/%E0%A4%A',
  '/console/listings/%c0%af',
  '/console/operator/accounts/%ff',
  '/console/operator/accounts/%c3%28/',
  '/console/operator/jobs/%ed%a0%80',
  '/console/invite/%ff',
  '/console/assets/%ff.css',
  '/console/no-such-page/%ff',
];

type Who = 'anonymous' | 'seller' | 'operator';

function levelsAtLeast(lines: string[], level: number): string[] {
  return lines.filter((line) => (JSON.parse(line) as { level: number }).level >= level);
}

/** A console page as every console answer must be: HTML with the console's security headers. */
function assertConsolePage(res: LightMyRequestResponse, status: number, label: string): void {
  assert.equal(res.statusCode, status, `${label}: ${res.body.slice(0, 300)}`);
  assert.match(res.headers['content-type'] as string, /^text\/html; charset=utf-8/, label);
  assert.match(res.headers['content-security-policy'] as string, /default-src 'none'/, label);
  assert.match(res.headers['content-security-policy'] as string, /frame-ancestors 'none'/, label);
  assert.equal(res.headers['x-frame-options'], 'DENY', label);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', label);
  assert.equal(res.headers['referrer-policy'], 'same-origin', label);
  assert.equal(res.headers['cache-control'], 'no-store', label);
  assert.match(res.headers['x-request-id'] as string, /^[0-9a-f-]{36}$/, label);
  assert.match(res.body, /^<!doctype html>/, label);
  if (status >= 400) assert.ok(res.body.includes(`Reference: ${res.headers['x-request-id'] as string}`), `${label}: the page names its reference`);
}

describe('console: malformed URLs are 400 pages, never a 500', () => {
  const log = logSink();
  let t: TestApp;
  const browsers = new Map<Who, ConsoleBrowser>();

  before(async () => {
    t = await createTestApp({ logDestination: log.sink });
    const accountId = (await admin(t, 'POST', '/admin/accounts', { name: 'Console Shop' })).json<{ accountId: number }>().accountId;
    assert.equal((await admin(t, 'POST', `/admin/accounts/${accountId}/users`, { email: SELLER, password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    assert.equal((await admin(t, 'POST', '/admin/operators', { email: OPERATOR, password: PASSWORD })).statusCode, 201);
    browsers.set('anonymous', consoleBrowser(t));
    for (const [who, email] of [['seller', SELLER], ['operator', OPERATOR]] as const) {
      const b = consoleBrowser(t);
      assert.equal((await b.signIn(email, PASSWORD)).statusCode, 303);
      browsers.set(who, b);
    }
  });
  after(() => t.close());

  for (const url of MALFORMED) {
    it(`GET ${url}`, async () => {
      for (const [who, b] of browsers) {
        const before = log.lines.length;
        const res = await b.get(url);
        const label = `${who} GET ${url}`;
        assertConsolePage(res, 400, label);
        assert.match(res.body, /<title>That did not work · Commerce console<\/title>/, label);
        assert.match(res.body, /not valid UTF-8/, label);
        assert.deepEqual(levelsAtLeast(log.lines.slice(before), 50), [], `${label}: nothing logged at error level`);
      }
    });
  }

  it('a form post to a malformed URL is the same 400 page (before the CSRF check and the body)', async () => {
    const b = browsers.get('seller')!;
    for (const url of ['/console/login?next=%ff', '/console/reports/%ff/cancel', '/console/operator/accounts/%c3%28/users']) {
      const before = log.lines.length;
      assertConsolePage(await b.post(url, { email: SELLER, password: PASSWORD }), 400, `POST ${url}`);
      assertConsolePage(await b.post(url, {}, { csrf: false }), 400, `POST ${url} without a token`);
      assert.deepEqual(levelsAtLeast(log.lines.slice(before), 50), [], `POST ${url}`);
    }
  });

  it('an over-long URL is a 414 page in the console look', async () => {
    const url = `/console/login?next=${'a'.repeat(9000)}`;
    for (const [who, b] of browsers) {
      const before = log.lines.length;
      const res = await b.get(url);
      assertConsolePage(res, 414, `${who} long URL`);
      assert.deepEqual(levelsAtLeast(log.lines.slice(before), 50), [], who);
    }
  });

  it('odd `next` values that do decode: the sign-in page keeps /console instead, a signed-in visitor is sent there', async () => {
    const odd = [
      `/console/${'x'.repeat(5000)}`,
      '/console\r\nSet-Cookie: taken=1',
      '/console/\u0000',
      '/console/caf\u00e9',
      '/console/\u20ac',
      '//evil.example/console',
      '/console/../v1/orders',
      '/console/%2e%2e/admin/accounts',
      '/console\\..\\admin',
      '/consoled',
      'javascript:alert(1)',
      '/console/login?next=//evil.example',
      ' /console',
    ];
    for (const next of odd) {
      const url = `/console/login?next=${encodeURIComponent(next)}`;
      const before = log.lines.length;
      const page = await browsers.get('anonymous')!.get(url);
      assertConsolePage(page, 200, `sign-in page, next=${JSON.stringify(next.slice(0, 40))}`);
      assert.match(page.body, /name="next" value="\/console"/, JSON.stringify(next.slice(0, 40)));
      for (const who of ['seller', 'operator'] as const) {
        const res = await browsers.get(who)!.get(url);
        assert.equal(res.statusCode, 303, `${who} next=${JSON.stringify(next.slice(0, 40))}: ${res.body.slice(0, 200)}`);
        assert.equal(res.headers.location, '/console', `${who} next=${JSON.stringify(next.slice(0, 40))}`);
        assert.equal(res.headers['taken'], undefined);
      }
      const fresh = consoleBrowser(t);
      await fresh.get('/console/login');
      const signedIn = await fresh.post('/console/login', { email: SELLER, password: PASSWORD, next });
      assert.equal(signedIn.statusCode, 303, signedIn.body.slice(0, 200));
      assert.equal(signedIn.headers.location, '/console/home', JSON.stringify(next.slice(0, 40)));
      assert.deepEqual(levelsAtLeast(log.lines.slice(before), 50), [], JSON.stringify(next.slice(0, 40)));
    }
    // A next inside the console still works.
    const ok = await browsers.get('seller')!.get(`/console/login?next=${encodeURIComponent('/console/reports?page=2#top')}`);
    assert.equal(ok.headers.location, '/console/reports?page=2#top');
  });

  it('API routes keep their version’s 400 body for the same URLs, and log nothing at error level', async () => {
    const before = log.lines.length;
    const bearer = { authorization: 'Bearer not-a-token' };
    for (const url of ['/v1/inventory/%ff', '/v1/orders?status=%c3%28', '/v1/report/%E0%A4%A', '/admin/accounts/%ff/users', '/admin/deliveries?state=%ff']) {
      assertV1Error(await t.app.inject({ url, headers: bearer }), 400, /not valid UTF-8/);
    }
    for (const url of ['/v2/storefront/listing/sku/%ff', '/v2/inventory?sku=%c3%28', '/v2/orders/%ed%a0%80']) {
      assertV2Error(await t.app.inject({ url, headers: bearer }), 400, 3, /not valid UTF-8/);
    }
    const api = await t.app.inject({ url: '/v1/inventory/%ff', headers: bearer });
    assert.equal(api.headers['content-security-policy'], undefined, 'the console headers stay on the console');
    assert.deepEqual(levelsAtLeast(log.lines.slice(before), 50), []);
  });

  it('a URL the HTTP parser refuses (a control character, a raw non-ASCII byte, a head over 16 KiB) is an HTML page too', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const send = (head: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(Buffer.from(`${head}\r\nHost: x\r\n\r\n`, 'latin1')));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
        socket.on('error', reject);
      });
    const cases: [string, number][] = [
      ['GET /console/caf\xe9 HTTP/1.1', 400],
      ['GET /console/login?next=a\x01b HTTP/1.1', 400],
      ['GET /console/login?next=a b HTTP/1.1', 400],
      [`GET /console/login?next=${'a'.repeat(17_000)} HTTP/1.1`, 414],
    ];
    for (const [head, status] of cases) {
      const before = log.lines.length;
      const answer = await send(head);
      const [top = '', body = ''] = answer.split('\r\n\r\n');
      const label = JSON.stringify(head.slice(0, 40));
      assert.match(top, new RegExp(`^HTTP/1\\.1 ${status} `), label);
      assert.match(top, /\r\nContent-Type: text\/html; charset=utf-8\r\n/, label);
      assert.match(top, /\r\nContent-Security-Policy: default-src 'none';/, label);
      assert.match(top, /\r\nX-Frame-Options: DENY\r\n/, label);
      assert.match(top, /\r\nX-Content-Type-Options: nosniff\r\n/, label);
      assert.equal(Buffer.byteLength(body), Number(/\r\nContent-Length: (\d+)/.exec(top)?.[1]), label);
      assert.match(body, /^<!doctype html>.*Commerce console/s, label);
      assert.deepEqual(levelsAtLeast(log.lines.slice(before), 50), [], label);
    }
    // The API's targets keep their JSON body.
    assert.match(await send('GET /v1/inventory/caf\xe9 HTTP/1.1'), /\r\nContent-Type: application\/json; charset=utf-8\r\n[\s\S]*"errorCode":400/);
  });

  it('logged nothing at error level in the whole run', () => {
    assert.deepEqual(levelsAtLeast(log.lines, 50), []);
  });
});
