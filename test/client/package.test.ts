// The partner client as a partner gets it: `npm pack` (whose prepack builds dist/ with tsc), the tarball
// installed offline into an empty project, imported with plain `node`, and type-checked as a dependency.
// The package is packed from a copy in a temporary directory, so a test run never writes into the checkout
// (several runs may share one); the copy's node_modules links to the repository's for tsc and @types/node.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT } from '../helpers/repo-root.js';

const CLIENT_DIR = path.join(REPO_ROOT, 'packages', 'client');
const TSC = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** The environment without npm's own variables (set when the tests run under `npm test`), so they cannot steer the nested npm. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
}

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, env: cleanEnv(), encoding: 'utf8', timeout: 180_000 });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} in ${cwd} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

interface PackResult {
  filename: string;
  name: string;
  version: string;
  files: { path: string }[];
}

// No database is involved: the run on PostgreSQL (TEST_DATABASE_URL) leaves it to the SQLite run, where it always runs.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe('partner client package (npm pack, install, import)', { skip: onPostgres && 'needs no database: it runs in the SQLite pass' }, () => {
  let work: string;
  let tarball: string;
  let packed: PackResult;
  let consumer: string;
  const manifest = JSON.parse(readFileSync(path.join(CLIENT_DIR, 'package.json'), 'utf8')) as Record<string, unknown>;

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'mcs-client-pack-'));
    const copy = path.join(work, 'package');
    cpSync(CLIENT_DIR, copy, { recursive: true, filter: (src) => !/[\\/](dist|node_modules)$/.test(src) });
    symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    const out = path.join(work, 'out');
    mkdirSync(out);
    packed = (JSON.parse(run('npm', ['pack', '--json', '--pack-destination', out], copy)) as PackResult[])[0]!;
    tarball = path.join(out, packed.filename);

    consumer = path.join(work, 'consumer');
    mkdirSync(consumer);
    writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], consumer);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('is publishable: not private, ESM for Node 20, exports with types, built files only', () => {
    assert.equal(manifest.private, undefined);
    assert.equal(manifest.type, 'module');
    assert.deepEqual(manifest.engines, { node: '>=20' });
    assert.deepEqual((manifest.exports as Record<string, unknown>)['.'], { types: './dist/index.d.ts', import: './dist/index.js', default: './dist/index.js' });
    assert.equal(packed.filename, `mcs-partner-client-${String(manifest.version)}.tgz`);
    // The README's install lines name this tarball, and the CHANGELOG says what this version brings.
    assert.ok(readFileSync(path.join(CLIENT_DIR, 'README.md'), 'utf8').includes(`npm install /tmp/${packed.filename}`), 'README install lines name the tarball');
    assert.match(readFileSync(path.join(CLIENT_DIR, 'CHANGELOG.md'), 'utf8'), new RegExp(`^## ${String(manifest.version).replaceAll('.', '\\.')} `, 'm'));
    const files = packed.files.map((f) => f.path).sort();
    for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'dist/index.js', 'dist/index.d.ts', 'dist/schema.d.ts', 'dist/client.js', 'dist/verify-callback.js']) {
      assert.ok(files.includes(f), `${f} is in the tarball (${files.join(', ')})`);
    }
    assert.deepEqual(
      files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md', 'CHANGELOG.md'].includes(f)),
      [],
      'sources, examples and tsconfig files stay out',
    );
  });

  it('installs offline with no dependencies', () => {
    const installed = JSON.parse(readFileSync(path.join(consumer, 'node_modules', '@mcs', 'partner-client', 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(installed.version, manifest.version);
    assert.equal(installed.dependencies, undefined);
    const lock = JSON.parse(readFileSync(path.join(consumer, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    assert.deepEqual(Object.keys(lock.packages).sort(), ['', 'node_modules/@mcs/partner-client']);
  });

  it('imports with plain node as an ES module, and through import() from CommonJS', () => {
    writeFileSync(
      path.join(consumer, 'check.mjs'),
      `import { ApiError, buildUrl, createClient, itemsV1, itemsV2, pagesV1, pagesV2, signCallback, verifyCallback, callbackRejection } from '@mcs/partner-client';
const api = createClient({ baseUrl: 'https://api.example/mcs', accessToken: 't' });
const ts = String(Math.floor(Date.now() / 1000));
const signature = 'v1=' + signCallback('s3cret', ts, 'POST', '/cb/x', '{}');
console.log(JSON.stringify({
  functions: [buildUrl, createClient, itemsV1, itemsV2, pagesV1, pagesV2, signCallback, verifyCallback, callbackRejection].map((f) => typeof f),
  apiError: new ApiError(404, 'GET', 'u', { errorCode: 404, errorMessages: ['no'], referenceId: 'r' }).v1.referenceId,
  url: buildUrl(api.baseUrl, '/v1/salesOrder/{orderNumber}', { path: { orderNumber: '7' }, query: { status: ['PENDING', 'SHIPPED'] } }),
  verified: verifyCallback({ secret: 's3cret', headers: { 'x-service-timestamp': ts, 'x-service-signature': signature }, method: 'POST', pathWithQuery: '/cb/x', rawBody: '{}' }).ok,
  rejection: callbackRejection().status,
}));
`,
    );
    assert.deepEqual(JSON.parse(run(process.execPath, ['check.mjs'], consumer)), {
      functions: Array(9).fill('function'),
      apiError: 'r',
      url: 'https://api.example/mcs/v1/salesOrder/7?status=PENDING&status=SHIPPED',
      verified: true,
      rejection: 401,
    });

    writeFileSync(path.join(consumer, 'check.cjs'), `import('@mcs/partner-client').then((m) => console.log(typeof m.createClient));\n`);
    assert.equal(run(process.execPath, ['check.cjs'], consumer).trim(), 'function');
  });

  for (const resolution of ['NodeNext', 'Bundler'] as const) {
    it(`type-checks a TypeScript consumer (moduleResolution ${resolution}): typed paths, query, body and answers`, () => {
      const dir = path.join(consumer, `ts-${resolution.toLowerCase()}`);
      mkdirSync(dir, { recursive: true });
      // A Node project in TypeScript has @types/node; the repository's copy stands in for the consumer's own.
      mkdirSync(path.join(consumer, 'node_modules', '@types'), { recursive: true });
      try {
        symlinkSync(path.join(REPO_ROOT, 'node_modules', '@types', 'node'), path.join(consumer, 'node_modules', '@types', 'node'), 'dir');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: resolution === 'NodeNext' ? 'NodeNext' : 'ESNext',
            moduleResolution: resolution,
            strict: true,
            noEmit: true,
            // The package's own .d.ts files are checked too, once (checking the generated types takes seconds).
            skipLibCheck: resolution !== 'NodeNext',
            types: ['node'],
          },
          files: ['consumer.ts'],
        }),
      );
      writeFileSync(
        path.join(dir, 'consumer.ts'),
        `import { ApiError, createClient, itemsV1, itemsV2, verifyCallback, type Client, type V1ErrorBody } from '@mcs/partner-client';

export async function use(api: Client): Promise<string[]> {
  const order = await api.post('/v1/salesOrder', {
    body: { channelOrderId: 'C-1', orderTs: new Date().toISOString(), products: [{ requestedSku: 'SKU-1', quantity: 1 }] },
  });
  const numbers: string[] = [order.orderNumber];
  for await (const o of itemsV1(api, '/v1/salesOrder', { query: { pageLength: 100, status: ['PENDING'], lastUpdatedTs: '2026-01-01T00:00:00Z' } })) numbers.push(o.orderNumber);
  for await (const fo of itemsV2(api, '/v2/shipping/need_to_ship', 'orders', { query: { pageSize: 50 } })) numbers.push(fo.fulfillmentOrderId);
  await api.get('/v2/storefront/listing/valid_values', { query: { specIds: ['color'] } });
  // @ts-expect-error v1 query parameters are typed: pageLength is a number
  await api.get('/v1/salesOrder', { query: { pageLength: 'many' } });
  // @ts-expect-error v1 query parameters are typed: no such parameter
  await api.get('/v1/inventory', { query: { pageSize: 10 } });
  // @ts-expect-error v2 query parameters are typed: pageSize is a number
  await api.get('/v2/shipping/need_to_ship', { query: { pageSize: '50' } });
  // @ts-expect-error bodies are typed: quantity is a number
  await api.post('/v1/salesOrder', { body: { channelOrderId: 'C', orderTs: 'x', products: [{ requestedSku: 'S', quantity: '1' }] } });
  // @ts-expect-error not a path of the API
  await api.get('/v1/no-such-route');
  // @ts-expect-error answers are typed, not any
  const wrong: number = order.orderNumber;
  void wrong;
  return numbers;
}

export function errorBody(e: unknown): V1ErrorBody | undefined {
  return e instanceof ApiError ? e.v1 : undefined;
}

export const api: Client = createClient({ baseUrl: 'http://127.0.0.1:8080', accessToken: 'token' });
export const ok: boolean = verifyCallback({ secrets: ['s'], headers: new Headers(), method: 'GET', pathWithQuery: '/', rawBody: Buffer.alloc(0) }).ok;
`,
      );
      const result = spawnSync(process.execPath, [TSC, '-p', dir], { cwd: dir, encoding: 'utf8', timeout: 180_000 });
      assert.equal(result.status, 0, `tsc found errors:\n${result.stdout}${result.stderr}`);
    });
  }
});
