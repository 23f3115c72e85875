import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (issue 8 item 9): over a real socket,
 * because app.inject never goes through the parser.
 */

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

describe('parser-level refusals answer with the contract body', () => {
  let t: TestApp;
  let port = 0;
  before(async () => {
    t = await createTestApp();
    port = Number(new URL(await t.app.listen({ host: '127.0.0.1', port: 0 })).port);
  });
  after(async () => t.close());

  /** Sends raw bytes and reads until the server closes the connection. */
  function exchange(data: string): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(data));
      const chunks: Buffer[] = [];
      socket.on('data', (d: Buffer) => chunks.push(d));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const split = text.indexOf('\r\n\r\n');
        assert.ok(split > 0, `a whole HTTP response: ${JSON.stringify(text.slice(0, 300))}`);
        const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
        const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        const body = text.slice(split + 4);
        assert.equal(Buffer.byteLength(body), Number(headers['content-length']));
        resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) as unknown });
      });
    });
  }

  function assertV1(res: RawResponse, status: number): string {
    assert.equal(res.status, status);
    assert.match(res.headers['content-type']!, /^application\/json/);
    const body = res.body as { errorCode: number; errorMessages: string[]; referenceId: string };
    assert.equal(body.errorCode, status);
    assert.equal(body.errorMessages.length, 1);
    assert.match(body.referenceId, /^[0-9a-f-]{36}$/);
    assert.equal(body.referenceId, res.headers['x-request-id']);
    return body.errorMessages[0]!;
  }

  function assertV2(res: RawResponse, status: number, code: number): string {
    assert.equal(res.status, status);
    assert.match(res.headers['content-type']!, /^application\/json/);
    const body = res.body as { code: number; message: string; details: unknown[] };
    assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'message']);
    assert.equal(body.code, code);
    assert.deepEqual(body.details, []);
    assert.match(res.headers['x-request-id']!, /^[0-9a-f-]{36}$/);
    return body.message;
  }

  it('headers over 16 KiB → 431', async () => {
    const big = 'a'.repeat(20_000);
    assert.match(assertV1(await exchange(`GET /v1/inventory HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`), 431), /headers/);
    assertV2(await exchange(`GET /v2/inventory HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`), 431, 3);
  });

  it('a request line over 16 KiB → 414', async () => {
    const long = 'a'.repeat(20_000);
    assert.match(assertV1(await exchange(`GET /v1/inventory/${long} HTTP/1.1\r\nHost: x\r\n\r\n`), 414), /URL/);
    assertV2(await exchange(`GET /v2/inventory?cursor=${long} HTTP/1.1\r\nHost: x\r\n\r\n`), 414, 3);
  });

  it('a method the parser does not know → 501 (v2 code 12 UNIMPLEMENTED)', async () => {
    assertV1(await exchange('FOO /v1/inventory HTTP/1.1\r\nHost: x\r\n\r\n'), 501);
    assertV2(await exchange('FOO /v2/inventory HTTP/1.1\r\nHost: x\r\n\r\n'), 501, 12);
    assertV2(await exchange('FOO http://x/v2/inventory HTTP/1.1\r\nHost: x\r\n\r\n'), 501, 12);
  });

  it('bytes that are not HTTP → the v1 body', async () => {
    const res = await exchange('GET /v1/inventory HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
    assert.match(assertV1(res, 400), /not valid HTTP/);
  });

  it('a method the parser knows but no route takes → 405 / 501 through the router, over the wire too', async () => {
    const r1 = await exchange('PROPFIND /v1/inventory HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assertV1(r1, 405);
    assert.equal(r1.headers.allow, 'GET, HEAD, POST');
    assertV2(await exchange('PROPFIND /v2/inventory HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 501, 12);
  });
});
