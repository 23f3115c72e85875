import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';

const KiB = 1024;
const LIMIT = 256 * KiB;
const JSON_LIMIT = 64 * KiB;
const HUGE = 201 * 1024 * KiB;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The server said "100 Continue". */
  continued: boolean;
  /** Body bytes the client had handed to its socket when the answer arrived. */
  sentBeforeAnswer: number;
  /** A write error after the answer (the server stopped reading), if any. */
  writeError: string | null;
}

interface Send {
  method?: string;
  path: string;
  headers: Record<string, string>;
  /** Body pieces, written as the socket takes them (none: headers only). */
  body?: Iterable<Buffer>;
  /** Wait for "100 Continue" before the body. */
  expectContinue?: boolean;
  agent?: http.Agent | false;
}

function send(port: number, options: Send): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers, ...(options.expectContinue ? { expect: '100-continue' } : {}) };
    const req = http.request({ host: '127.0.0.1', port, method: options.method ?? 'POST', path: options.path, headers, agent: options.agent ?? false });
    let sent = 0;
    let continued = false;
    let writeError: string | null = null;
    let answer: Omit<Answer, 'body' | 'writeError'> | null = null;
    const pieces = options.body?.[Symbol.iterator]();
    const pump = () => {
      if (!pieces || answer) return;
      for (let next = pieces.next(); !next.done; next = pieces.next()) {
        sent += next.value.length;
        if (!req.write(next.value)) {
          req.once('drain', pump);
          return;
        }
        if (answer) return;
      }
      req.end();
    };
    req.on('continue', () => {
      continued = true;
      pump();
    });
    req.on('response', (res) => {
      answer = { status: res.statusCode ?? 0, headers: res.headers, continued, sentBeforeAnswer: sent };
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ ...answer!, body: Buffer.concat(parts).toString('utf8'), writeError }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (answer) writeError = error.code ?? error.message;
      else reject(error);
    });
    if (options.expectContinue || !pieces) req.flushHeaders();
    else pump();
  });
}

/** `total` bytes of CSV lines in pieces of 16 KiB. */
function* csvPieces(total: number): Generator<Buffer> {
  const line = 'INV-1,Main,1\n';
  const piece = Buffer.from(`sku,warehouse,quantity\n${line.repeat(Math.ceil((16 * KiB) / line.length))}`.slice(0, 16 * KiB));
  for (let sent = 0; sent < total; sent += piece.length) yield piece.subarray(0, Math.min(piece.length, total - sent));
}

/** A multipart body around `fileBytes` of CSV, in pieces. */
function multipart(fileBytes: number, fields: Record<string, string> = { importType: 'Inventory' }): { type: string; length: number; pieces: () => Generator<Buffer> } {
  const boundary = `----limits${randomBytes(6).toString('hex')}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    length: head.length + fileBytes + tail.length,
    *pieces() {
      yield head;
      yield* csvPieces(fileBytes);
      yield tail;
    },
  };
}

function v1Error(answer: Answer, status: number, pattern?: RegExp): void {
  assert.equal(answer.status, status, answer.body);
  assert.match(String(answer.headers['content-type']), /^application\/json/);
  const body = JSON.parse(answer.body) as { errorCode: number; errorMessages: string[]; referenceId: string };
  assert.equal(body.errorCode, status);
  assert.equal(body.referenceId, answer.headers['x-request-id']);
  if (pattern) assert.match(body.errorMessages.join('\n'), pattern);
}

/** Every regular file under `dir` (the store's directory). */
function filesUnder(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    out = statSync(full).isDirectory() ? [...out, ...filesUnder(full)] : [...out, full];
  }
  return out;
}

for (const store of ['database', 'directory'] as const) {
  describe(`upload limits (files in the ${store})`, () => {
    let t: TestApp;
    let seed: SeededAccount;
    let port: number;
    let dir: string;

    before(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'upload-limits-'));
      t = await createTestApp({
        config: { uploadBodyLimitBytes: LIMIT, jsonBodyLimitBytes: JSON_LIMIT, ...(store === 'directory' ? { fileStoreDir: dir } : {}) },
      });
      seed = await seedAccount(t);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
    });
    after(async () => {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const auth = () => bearer(seed.sellerToken);
    const assertNothingKept = async () => {
      assert.deepEqual(await t.deps.db.db.selectFrom('stored_files').select('id').where('state', '!=', 'READY').execute(), [], 'no file row being written');
      const ready = await t.deps.db.db.selectFrom('stored_files').select('id').execute();
      const chunkFiles = await t.deps.db.db.selectFrom('stored_file_chunks').select('file_id').distinct().execute();
      assert.ok(chunkFiles.every((c) => ready.some((r) => r.id === c.file_id)), 'no chunks of a refused file');
      assert.equal(filesUnder(dir).length, store === 'directory' ? ready.length : 0, 'no file of a refused upload in FILE_STORE_DIR');
    };

    it('a Content-Length over the limit is a 413 before any byte of the body is sent, and before authentication', async () => {
      const form = multipart(0);
      const routes: [string, string][] = [
        ['/v1/report', form.type],
        ['/v1/import/validation/Inventory', 'text/csv'],
        ['/v1/report', 'application/json'],
        ['/v1/inventory', 'application/json'],
      ];
      for (const [route, type] of routes) {
        for (const credentials of [auth(), {}, { authorization: 'Bearer not-a-token' }]) {
          const answer = await send(port, { path: route, headers: { 'content-type': type, 'content-length': String(HUGE), ...credentials } });
          v1Error(answer, 413, /larger than the service accepts/);
          assert.equal(answer.sentBeforeAnswer, 0);
        }
      }
      // A form whose file is just over the limit is refused from its declared length too.
      const justOver = multipart(LIMIT + 65 * KiB);
      const over = await send(port, { path: '/v1/report', headers: { 'content-type': justOver.type, 'content-length': String(justOver.length), ...auth() }, expectContinue: true, body: justOver.pieces() });
      v1Error(over, 413, /the file is larger than the service accepts \(256 KiB\)/);
      assert.equal(over.continued, false);
      // The JSON routes' own limit, declared: 413 too.
      v1Error(await send(port, { path: '/v1/inventory', headers: { 'content-type': 'application/json', 'content-length': String(JSON_LIMIT + 1), ...auth() } }), 413, /request body is larger than the service accepts \(64 KiB\)/);
      // v2 answers its own body.
      const v2 = await send(port, { path: '/v2/inventory', headers: { 'content-type': 'application/json', 'content-length': String(HUGE) } });
      assert.equal(v2.status, 413, v2.body);
      assert.equal((JSON.parse(v2.body) as { code: number }).code, 3);
      // An unknown route is still a 404, whatever it declares.
      v1Error(await send(port, { path: '/v1/no-such-route', headers: { 'content-type': 'text/csv', 'content-length': String(HUGE) } }), 404);
      await assertNothingKept();
    });

    it('a client that asks for "100 Continue" gets it only once the request passed its checks', async () => {
      const over = await send(port, { path: '/v1/import/validation/Inventory', headers: { 'content-type': 'text/csv', 'content-length': String(HUGE), ...auth() }, expectContinue: true, body: csvPieces(HUGE) });
      v1Error(over, 413);
      assert.equal(over.continued, false);
      const csv = Buffer.concat([...csvPieces(8 * KiB)]);
      const stranger = await send(port, { path: '/v1/import/validation/Inventory', headers: { 'content-type': 'text/csv', 'content-length': String(csv.length), authorization: 'Bearer not-a-token' }, expectContinue: true, body: [csv] });
      v1Error(stranger, 401);
      assert.equal(stranger.continued, false);
      const ok = await send(port, { path: '/v1/import/validation/Inventory', headers: { 'content-type': 'text/csv', 'content-length': String(csv.length), ...auth() }, expectContinue: true, body: [csv] });
      assert.equal(ok.status, 200, ok.body);
      assert.equal(ok.continued, true);
    });

    it('a body without Content-Length is cut at the limit (413) and nothing of it is kept', async () => {
      const count = async () => ({
        files: (await t.deps.db.db.selectFrom('stored_files').select('id').execute()).length,
        reports: (await t.deps.db.db.selectFrom('reports').select('id').execute()).length,
        validations: (await t.deps.db.db.selectFrom('import_validations').select('id').execute()).length,
      });
      const before = await count();
      const csv = await send(port, { path: '/v1/import/validation/Inventory', headers: { 'content-type': 'text/csv', 'transfer-encoding': 'chunked', ...auth() }, body: csvPieces(256 * LIMIT) });
      v1Error(csv, 413, /larger than the service accepts/);
      assert.ok(csv.sentBeforeAnswer < 256 * LIMIT, 'answered long before the client sent it all');
      const form = multipart(8 * LIMIT);
      const report = await send(port, { path: '/v1/report', headers: { 'content-type': form.type, 'transfer-encoding': 'chunked', ...auth() }, body: form.pieces() });
      v1Error(report, 413, /larger than the service accepts/);
      // Bytes around the file count too: a body that never reaches a boundary is cut like a file.
      const endless = await send(port, {
        path: '/v1/report',
        headers: { 'content-type': form.type, 'transfer-encoding': 'chunked', ...auth() },
        body: (function* () {
          for (let i = 0; i < 400; i++) yield Buffer.alloc(16 * KiB, 'x');
        })(),
      });
      v1Error(endless, 413);
      assert.deepEqual(await count(), before);
      await assertNothingKept();
    });

    it('uploads up to the limit are accepted, whole', async () => {
      const csv = Buffer.concat([...csvPieces(LIMIT)]);
      const validation = await send(port, { path: '/v1/import/validation/Inventory', headers: { 'content-type': 'text/csv', 'content-length': String(csv.length), ...auth() }, body: [csv] });
      assert.equal(validation.status, 200, validation.body);
      const form = multipart(LIMIT);
      const report = await send(port, { path: '/v1/report', headers: { 'content-type': form.type, 'content-length': String(form.length), ...auth() }, body: form.pieces() });
      assert.equal(report.status, 200, report.body);
      const sizes = await t.deps.db.db.selectFrom('stored_files').select('byte_size').where('state', '=', 'READY').execute();
      assert.ok(sizes.filter((s) => Number(s.byte_size) === LIMIT).length >= 2, 'both files stored whole');
      await assertNothingKept();
    });

    it('after a refusal the connection is either reused cleanly or ended by the server', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const csv = Buffer.concat([...csvPieces(2 * LIMIT)]);
        // The whole body is sent: the server discards it and the connection serves the next request.
        const refused = await send(port, { path: '/v1/import/validation/Inventory', headers: { 'content-type': 'text/csv', 'content-length': String(csv.length), ...auth() }, body: [csv], agent });
        v1Error(refused, 413);
        assert.equal(refused.writeError, null);
        const next = await send(port, { method: 'GET', path: '/healthz', headers: {}, agent });
        assert.equal(next.status, 200);
      } finally {
        agent.destroy();
      }
      // A client that declares a body it never sends: answered, then the server ends the connection.
      const closed = await new Promise<{ status: number; ms: number }>((resolve, reject) => {
        const started = Date.now();
        const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/report', headers: { 'content-type': 'text/csv', 'content-length': String(HUGE), ...auth() }, agent: false });
        let status = 0;
        req.on('response', (res) => {
          status = res.statusCode ?? 0;
          res.resume();
        });
        req.on('close', () => resolve({ status, ms: Date.now() - started }));
        req.on('error', () => undefined);
        setTimeout(() => reject(new Error('the server kept the connection open')), 10_000).unref();
        req.flushHeaders();
      });
      assert.equal(closed.status, 413);
    });

    if (store === 'database') {
      it('the console answers its own 413 page, before the session and the form token are looked at', async () => {
        const account = (await admin(t, 'POST', '/admin/accounts', { name: 'Console Shop' })).json<{ accountId: number }>().accountId;
        assert.equal((await admin(t, 'POST', `/admin/accounts/${account}/users`, { email: 'owner@limits.example', password: 'correct horse battery', role: 'OWNER' })).statusCode, 201);
        const browser = consoleBrowser(t);
        assert.equal((await browser.signIn('owner@limits.example', 'correct horse battery')).statusCode, 303);
        const cookie = [...browser.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
        const form = multipart(0);
        for (const [route, type, headers] of [
          [`/console/reports/import?_csrf=${encodeURIComponent(browser.csrf)}`, form.type, { cookie }],
          ['/console/reports/validation', form.type, {}],
          ['/console/login', 'application/x-www-form-urlencoded', {}],
        ] as const) {
          const answer = await send(port, { path: route, headers: { 'content-type': type, 'content-length': String(HUGE), ...headers } });
          assert.equal(answer.status, 413, `${route}: ${answer.body.slice(0, 200)}`);
          assert.match(String(answer.headers['content-type']), /^text\/html/);
          assert.match(String(answer.headers['content-security-policy']), /default-src 'none'/);
          assert.equal(answer.headers['x-frame-options'], 'DENY');
          assert.match(answer.body, /<title>Too large · Commerce console<\/title>/);
          assert.match(answer.body, /larger than the service accepts/);
        }
        await assertNothingKept();
      });
    }
  });
}
