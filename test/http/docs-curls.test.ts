import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createFullSandbox, type FullSandbox } from '../../src/cli/sandbox.js';
import { withTx } from '../../src/db/tx.js';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../helpers/app.js';
import { curlRequest, docSteps, filesIn, relaxedJson, shapeProblems, shellWords, type DocStep } from '../helpers/curl-replay.js';
import { runJobs } from '../helpers/reports.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

/**
 * Every `curl` in docs/partners runs as written against a fresh sandbox (`npm run cli -- sandbox`): each guide's
 * commands are read from its fenced blocks, parsed as curl would (test/helpers/curl-replay.ts refuses options it
 * does not know) and replayed in order through app.inject, the job worker running after each one as a server's
 * would. Each must answer the status the guide announces (`# → 201 …`), else a 2xx, and the shape of the JSON
 * example the guide shows right after it.
 *
 * The guides write example ids (`/v1/report/41`, account 1) where a reader puts the id an earlier answer gave
 * them: the bindings below say, per guide, which answer each example id comes from, and each must be used, so a
 * guide that changes its examples has to change them too. Variables ($TOKEN, $BASE, …) are defined the way the
 * guides tell a partner to obtain them.
 */

const DOCS = path.join(REPO_ROOT, 'docs/partners');
/** $BASE: the service's development address (callbacks.md's loop uses it literally). */
const BASE = 'http://127.0.0.1:8080';
/** Addresses the guides write for the service: $BASE, and getting-a-token.md's and paging.md's public example host. */
const SERVICE_ORIGINS = new Set([BASE, 'https://api.example.com']);
/** The redirect URI getting-a-token.md registers and sends. */
const SHIPFAST_REDIRECT_URI = 'https://shipfast.example/oauth/callback';

type Json = Record<string, unknown>;

interface Answer {
  method: string;
  path: string;
  status: number;
  json: unknown;
}

/** One guide's replay: the sandbox, the answers so far, the shell variables its blocks set. */
class Replay {
  readonly answers: Answer[] = [];
  readonly shellVars = new Map<string, string>();
  private partner: { appId: number; clientId: string; clientSecret: string } | null = null;
  private installationId: number | null = null;

  constructor(
    readonly t: TestApp,
    readonly sandbox: FullSandbox,
  ) {}

  get accountId(): number {
    return this.sandbox.summary.account.accountId;
  }
  get sellerToken(): string {
    return this.sandbox.summary.sellerToken.accessToken;
  }

  warehouse(name: string): number {
    return this.sandbox.summary.warehouses.find((w) => w.name === name)!.warehouseId;
  }

  app(kind: string) {
    return this.sandbox.summary.apps.find((a) => a.kind === kind)!;
  }

  /** The JSON of the latest answer to METHOD on a path matching `path`: the "previous answer" a guide refers to. */
  last(method: string, path: RegExp): Json {
    const answer = [...this.answers].reverse().find((a) => a.method === method && path.test(a.path));
    assert.ok(answer, `no earlier ${method} ${path} answer to take an id from`);
    return answer.json as Json;
  }

  /** A call the reader makes to find an id the guide names (e.g. their custom store). */
  async read(url: string, token: string): Promise<Json> {
    const res = await this.t.app.inject({ url, headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Json;
  }

  async operator(method: 'POST', url: string, payload?: Json): Promise<Json> {
    const res = await this.t.app.inject({ method, url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, ...(payload ? { payload } : {}) });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.statusCode === 204 ? {} : (res.json() as Json);
  }

  /** getting-a-token.md §1: the operators register the partner's application (once) and hand over its credentials. */
  async partnerApp() {
    this.partner ??= (await this.operator('POST', '/admin/apps', {
      name: 'ShipFast',
      contactEmail: 'dev@shipfast.example',
      redirectUri: SHIPFAST_REDIRECT_URI,
      kind: 'SALES_CHANNEL',
      scopes: ['listing:self'],
    })) as { appId: number; clientId: string; clientSecret: string };
    return this.partner;
  }

  /**
   * getting-a-token.md §2: the seller installs the app (the operator API plays the Install button) and the code
   * arrives. A code is single-use, so each exchange needs an installation of its own: the previous one is
   * uninstalled first, as a seller would before installing again.
   */
  async freshCode(): Promise<string> {
    const { appId } = await this.partnerApp();
    if (this.installationId !== null) await this.operator('POST', `/admin/accounts/${this.accountId}/installations/${this.installationId}/revoke`);
    const installed = (await this.operator('POST', `/admin/accounts/${this.accountId}/installations`, { appId, storefrontName: 'ShipFast shop' })) as {
      installationId: number;
      code: string;
    };
    this.installationId = installed.installationId;
    return installed.code;
  }
}

type Value = (r: Replay) => string | number | Promise<string | number>;

interface GuideSetup {
  /** The variables the guide assumes, obtained as the guides say (evaluated anew for each command). */
  vars: Record<string, Value>;
  /** Example text in the guide → the real value it stands for; each must occur in the guide. */
  bindings?: [example: string, value: (r: Replay) => Promise<string> | string][];
  /** The guide's service runs in development without ADMIN_TOKEN: /admin is open to loopback callers. */
  adminOpenToLoopback?: boolean;
  /** What the guide's shell around the commands relies on, checked after the replay. */
  afterwards?: (r: Replay) => Promise<void>;
}

const seller: Value = (r) => r.sellerToken;
const accountOne = (r: Replay) => `accounts/${r.accountId}/`;

const GUIDES: Record<string, GuideSetup> = {
  'getting-a-token.md': {
    vars: {
      CLIENT_ID: async (r) => (await r.partnerApp()).clientId,
      CLIENT_SECRET: async (r) => (await r.partnerApp()).clientSecret,
      CODE: (r) => r.freshCode(),
      // §4 uses the token the exchange above answered.
      TOKEN: (r) => r.last('POST', /^\/v1\/token$/).access_token as string,
    },
  },
  'fulfillment.md': {
    // The guide is for shipping and 3PL integrations: the sandbox's shipping app and its token.
    vars: { BASE: () => BASE, TOKEN: (r) => r.app('SHIPPING').accessToken },
  },
  'import-validation.md': {
    vars: { BASE: () => BASE, TOKEN: seller },
    bindings: [
      [
        'validation/Orders;12',
        async (r) => {
          // "custom store 12": one of the seller's custom stores, as GET /v1/customStores lists them.
          const stores = (await r.read('/v1/customStores', r.sellerToken)).results as { integrationId: number }[];
          return `validation/Orders;${stores[0]!.integrationId}`;
        },
      ],
      ['results/41', (r) => `results/${r.last('POST', /^\/v1\/import\/validation\//).import_validation_id as number}`],
    ],
  },
  'imports-products.md': {
    vars: { BASE: () => BASE, TOKEN: seller, ADMIN_TOKEN: () => ADMIN_TOKEN },
    bindings: [
      ['accounts/1/', accountOne],
      ['report/41', (r) => `report/${r.last('POST', /^\/v1\/report$/).reportId as number}`],
      ['templateId=4', (r) => `templateId=${r.last('POST', /^\/admin\/accounts\/\d+\/import-templates$/).templateId as number}`],
      ['import-templates/5', (r) => `import-templates/${r.last('POST', /^\/admin\/accounts\/\d+\/import-templates$/).templateId as number}`],
    ],
  },
  'inbound-shipments.md': {
    vars: { BASE: () => BASE, TOKEN: seller, ADMIN_TOKEN: () => ADMIN_TOKEN },
    bindings: [
      ['accounts/1/', accountOne],
      // "a warehouse of the account (GET /v1/warehouses)": the sandbox's Main, whose stock the seller controls.
      ['"destination_warehouse_id": 1', (r) => `"destination_warehouse_id": ${r.warehouse('Main')}`],
      ['warehouseId=1', (r) => `warehouseId=${r.warehouse('Main')}`],
      ['inbound-shipment/7', (r) => `inbound-shipment/${r.last('POST', /^\/v1\/inbound-shipment$/).id as number}`],
      ['inbound-shipments/7', (r) => `inbound-shipments/${r.last('POST', /^\/v1\/inbound-shipment$/).id as number}`],
      // Vendor 3 is the one the shipment created ("vendor": {"vendorId": 3, …} in its record).
      ['vendor/3', (r) => `vendor/${(r.last('POST', /^\/v1\/inbound-shipment$/).vendor as Json).vendorId as number}`],
      ['vendors/3', (r) => `vendors/${(r.last('POST', /^\/v1\/inbound-shipment$/).vendor as Json).vendorId as number}`],
    ],
  },
  'paging.md': {
    vars: { TOKEN: seller },
    bindings: [['warehouses=1&', (r) => `warehouses=${r.warehouse('Main')}&`]],
    // The loop around the curl (jq) reads `.results[]` and follows `.pagination.nextToken` until it is "".
    afterwards: async (r) => {
      let page = r.last('GET', /^\/v1\/inventory$/);
      for (let pages = 1; ; pages++) {
        assert.ok(Array.isArray(page.results), JSON.stringify(page));
        const next = (page.pagination as Json).nextToken as string;
        if (next === '') break;
        assert.ok(pages < 50, 'the loop never ends');
        const url = new URL(next);
        const res = await r.t.app.inject({ url: `${url.pathname}${url.search}`, headers: { host: url.host, authorization: r.sellerToken } });
        assert.equal(res.statusCode, 200, res.body);
        page = res.json() as Json;
      }
    },
  },
  'reports.md': {
    vars: { BASE: () => BASE, TOKEN: seller },
    bindings: [['report/1234', (r) => `report/${r.last('POST', /^\/v1\/report$/).reportId as number}`]],
  },
  'callbacks.md': {
    vars: {},
    adminOpenToLoopback: true,
    bindings: [
      ['accounts/1/', accountOne],
      ['accountId=1', (r) => `accountId=${r.accountId}`],
      // The loop installs its own storefront played by the simulator; the sandbox's storefront is exactly that.
      ['<storefrontId>', (r) => String(r.app('SALES_CHANNEL').storefrontId)],
    ],
  },
};

/** Applies the guide's bindings to a step's text, counting which were used. */
async function bind(text: string, setup: GuideSetup, r: Replay, used: Set<string>): Promise<string> {
  let out = text;
  for (const [example, value] of setup.bindings ?? []) {
    if (!out.includes(example)) continue;
    used.add(example);
    out = out.split(example).join(await value(r));
  }
  return out;
}

/** The value of each variable the command names: the shell's own first, else the guide's. */
async function variables(text: string, setup: GuideSetup, r: Replay): Promise<(name: string) => string> {
  const values = new Map(r.shellVars);
  for (const [, braced, plain] of text.matchAll(/\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/g)) {
    const name = (braced ?? plain)!;
    const value = setup.vars[name];
    if (!values.has(name) && value) values.set(name, String(await value(r)));
  }
  return (name) => {
    const value = values.get(name);
    if (value === undefined) throw new Error(`$${name} is not defined for this guide (add it to GUIDES in test/http/docs-curls.test.ts)`);
    return value;
  };
}

async function replayStep(step: DocStep, setup: GuideSetup, r: Replay, used: Set<string>, where: string): Promise<void> {
  const text = await bind(step.kind === 'curl' ? step.text : step.raw, setup, r, used);
  const words = shellWords(text, await variables(text, setup, r)).words;
  if (step.kind === 'assign') {
    r.shellVars.set(step.name, words[0]!);
    return;
  }
  assert.equal(words[0], 'curl', where);
  const request = curlRequest(words.slice(1), filesIn(path.join(DOCS, 'samples')));
  assert.ok(SERVICE_ORIGINS.has(request.url.origin), `${where}: ${request.url.origin} is not the service`);
  const res = await r.t.app.inject({
    method: request.method as 'GET',
    url: `${request.url.pathname}${request.url.search}`,
    headers: { ...request.headers, host: request.url.host },
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  });
  const json = /json/.test(String(res.headers['content-type'] ?? '')) ? (res.json() as unknown) : null;
  r.answers.push({ method: request.method, path: request.url.pathname, status: res.statusCode, json });
  // A server's worker runs reports, validations and callbacks meanwhile; the reader's next command sees their result.
  await runJobs(r.t);
  const said = `${where}: ${request.method} ${request.url.pathname}${request.url.search} answered ${res.statusCode} ${res.body.slice(0, 500)}`;
  if (step.expectedStatus !== null) assert.equal(res.statusCode, step.expectedStatus, said);
  else assert.ok(res.statusCode >= 200 && res.statusCode < 300, said);
  if (step.announcedKeys !== null) {
    const missing = step.announcedKeys.filter((key) => !(json !== null && typeof json === 'object' && Object.hasOwn(json, key)));
    assert.deepEqual(missing, [], `${where}: the guide's comment sketches these keys of the answer: ${res.body.slice(0, 500)}`);
  }
  if (request.savesUnderServerName) {
    // curl -OJ saves the answer under the name Content-Disposition gives.
    assert.match(String(res.headers['content-disposition'] ?? ''), /filename=/, `${where}: -J needs a file name from the service`);
  }
  if (step.exampleAnswer !== null) {
    assert.notEqual(json, null, `${where}: the guide shows a JSON answer, the service answered ${res.headers['content-type']}`);
    assert.deepEqual(shapeProblems(relaxedJson(step.exampleAnswer), json), [], `${where}: the answer does not have the shape the guide shows: ${res.body.slice(0, 800)}`);
  }
}

async function replayGuide(file: string, setup: GuideSetup): Promise<void> {
  const steps = docSteps(readFileSync(path.join(DOCS, file), 'utf8'));
  assert.ok(steps.some((s) => s.kind === 'curl'), `${file} has a setup here but no curl command`);
  const t = await createTestApp(setup.adminOpenToLoopback ? { config: { adminToken: null } } : {});
  try {
    // Another seller first, so the reader's ids are not the guides' 1s by luck: a binding that took the wrong
    // answer would name this seller's account or warehouse and fail.
    await withTx(t.deps.db.db, (tx) => createFullSandbox(tx, t.deps.signer, t.deps.clock.now(), 'Another seller'));
    const sandbox = await withTx(t.deps.db.db, (tx) => createFullSandbox(tx, t.deps.signer, t.deps.clock.now(), 'Sandbox seller'));
    const r = new Replay(t, sandbox);
    const used = new Set<string>();
    for (const step of steps) await replayStep(step, setup, r, used, `docs/partners/${file}:${step.line}`);
    await setup.afterwards?.(r);
    const unused = (setup.bindings ?? []).map(([example]) => example).filter((e) => !used.has(e));
    assert.deepEqual(unused, [], `${file}: bindings whose example text the guide no longer has`);
  } finally {
    await t.close();
  }
}

const guidesWithCurl = readdirSync(DOCS)
  .filter((f) => f.endsWith('.md'))
  .filter((f) => docSteps(readFileSync(path.join(DOCS, f), 'utf8')).some((s) => s.kind === 'curl'))
  .sort();

describe('every curl in docs/partners runs as written against a fresh sandbox', () => {
  it('every guide with a curl command has a setup here, and every setup a guide with curls', () => {
    assert.deepEqual(guidesWithCurl, Object.keys(GUIDES).sort());
  });

  for (const file of guidesWithCurl) {
    it(file, async () => replayGuide(file, GUIDES[file] ?? { vars: {} }));
  }
});

describe('the curl replay refuses what it does not understand, so no example is skipped silently', () => {
  const noFiles = filesIn(path.join(DOCS, 'samples'));
  it('an unknown option, long or short', () => {
    assert.throws(() => curlRequest(['--compressed', `${BASE}/v1/warehouses`], noFiles), /--compressed is not understood/);
    assert.throws(() => curlRequest(['-sk', `${BASE}/v1/warehouses`], noFiles), /-k is not understood/);
  });
  it('a shell operator, a command substitution, an unset variable', () => {
    assert.throws(() => shellWords('curl a; curl b', () => ''), /shell operator/);
    assert.throws(() => shellWords('curl "$(cat x)"', () => ''), /cannot expand/);
    assert.throws(() => docSteps('```sh\necho x | curl -s "$URL"\n```\n'), /cannot isolate/);
  });
  it('a file that the samples do not have', () => {
    assert.throws(() => curlRequest(['-F', 'file=@missing.csv', `${BASE}/v1/report`], noFiles), /no such file/);
  });
  it('builds what curl sends: method, Basic credentials, url-encoded and multipart bodies', () => {
    const token = curlRequest(['-s', `${BASE}/v1/token`, '-u', 'id:secret', '-d', 'grant_type=authorization_code', '--data-urlencode', 'redirect_uri=https://x.example/cb?a=1'], noFiles);
    assert.equal(token.method, 'POST');
    assert.equal(token.headers.authorization, `Basic ${Buffer.from('id:secret').toString('base64')}`);
    assert.equal(token.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(token.payload?.toString(), 'grant_type=authorization_code&redirect_uri=https%3A%2F%2Fx.example%2Fcb%3Fa%3D1');
    const form = curlRequest(['-XPUT', '-F', 'importType=Inventory', '-F', 'file=@inventory.csv;type=text/csv', `${BASE}/v1/report`], noFiles);
    assert.equal(form.method, 'PUT');
    assert.match(form.headers['content-type']!, /^multipart\/form-data; boundary=/);
    assert.match(form.payload!.toString(), /name="file"; filename="inventory.csv"\r\nContent-Type: text\/csv\r\n\r\nsku,warehouse/);
  });
  it('reads status comments and the example answer that follows a block', () => {
    const steps = docSteps('```sh\n# Create → 201 {id, "name": "x", list: [1, 2], …}\ncurl -X POST "$B/x" \\\n  -d \'{"a":\n 1}\'\n```\n\n```json\n{"id": 1, "rest": [ … ], …}\n```\n');
    assert.equal(steps.length, 1);
    const [step] = steps;
    assert.ok(step?.kind === 'curl');
    assert.equal(step.expectedStatus, 201);
    assert.deepEqual(step.announcedKeys, ['id', 'name', 'list']);
    assert.deepEqual(relaxedJson(step.exampleAnswer!), { id: 1, rest: [] });
    assert.deepEqual(shapeProblems({ id: 1, more: 'x' }, { id: 2 }), ['$.more: missing from the answer']);
  });
});
