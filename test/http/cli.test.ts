import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { Command, CommanderError } from 'commander';
import { registerAdminCommands } from '../../src/cli/admin-commands.js';
import { withDeps } from '../../src/cli/index.js';
import { registerSandboxCommand } from '../../src/cli/sandbox.js';
import { databaseLabel, type Config } from '../../src/config.js';
import { connectDatabase, type DbHandle } from '../../src/db/connect.js';
import { isAppError } from '../../src/domain/errors.js';
import { testConfig, withSchemaLock } from '../helpers/app.js';
import { listInstallations } from '../../src/domain/accounts/installations.js';
import { authenticateToken } from '../../src/domain/accounts/tokens.js';
import type { SandboxSummary } from '../../src/domain/sandbox-partner/sandbox.js';
import { signIn } from '../../src/domain/users/sign-in.js';
import { mainCommand } from '../helpers/main-command.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

const ROOT = REPO_ROOT;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as an operator would (`npm run cli -- …`), on an embedded database in dataDir. */
function cli(dataDir: string, args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '8181', HOST: '127.0.0.1' };
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'NODE_ENV', 'PUBLIC_BASE_URL', 'ADMIN_TOKEN', 'SERVER_SECRET']) {
    delete env[name];
  }
  return new Promise((resolve) => {
    execFile(process.execPath, mainCommand(args), { cwd: ROOT, env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

// The CLI always uses the embedded SQLite database here; the PostgreSQL run covers the same domain code
// through the sandbox unit test and the /admin routes.
const skip = process.env.TEST_DATABASE_URL ? 'spawns the CLI on its embedded SQLite database; not a PostgreSQL test' : false;

describe('operator CLI', { skip }, () => {
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'mcs-cli-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  async function withDb<T>(fn: (db: DbHandle) => Promise<T>): Promise<T> {
    const handle = connectDatabase({ databaseUrl: null, sqliteFile: path.join(dataDir, 'service.db') });
    try {
      return await fn(handle);
    } finally {
      await handle.close();
    }
  }

  it('sandbox --json prints the sandbox, whose tokens authenticate against the database', async () => {
    const run = await cli(dataDir, ['sandbox', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as SandboxSummary & { baseUrl: string; examples: string[] };
    assert.equal(out.account.name, 'Sandbox seller');
    assert.deepEqual(
      out.warehouses.map((w) => w.name),
      ['Main', 'East', 'Marketplace network', '3PL West'],
    );
    assert.deepEqual(
      out.apps.map((a) => a.kind),
      ['SALES_CHANNEL', 'SHIPPING', 'INVENTORY', 'THIRD_PARTY_LOGISTICS'],
    );
    for (const app of out.apps) {
      assert.match(app.clientId, /^[0-9a-f]{20}$/);
      assert.match(app.clientSecret, /^[0-9a-f]{64}$/);
      assert.match(app.accessToken, /^mcs_/);
    }
    assert.match(out.sellerToken.accessToken, /^mcs_/);
    assert.equal(out.baseUrl, 'http://127.0.0.1:8181');
    // No server has run on this DATA_DIR: the URLs come from the shell, and the output says which database.
    const where = out as unknown as { database: string; baseUrlSource: string };
    assert.equal(where.baseUrlSource, 'HOST and PORT');
    assert.equal(where.database, path.join(dataDir, 'service.db'));
    assert.equal(out.examples.length, 3);
    assert.match(out.examples[0]!, /\/v1\/warehouses"$/);
    assert.match(out.examples[1]!, /\/v1\/inventory\?warehouses=\d+,\d+"$/);
    assert.ok(out.examples.slice(0, 2).every((e) => e.includes(out.sellerToken.accessToken)));
    const channelApp = out.apps.find((a) => a.kind === 'SALES_CHANNEL')!;
    assert.ok(out.examples[2]!.includes(channelApp.accessToken) && out.examples[2]!.endsWith('/v2/storefront/listing/new"'));
    // The sandbox storefront starts with one stocked listing for the channel to poll.
    const listing = (out as unknown as { listing: { listingId: number; sku: string; variantSkus: string[] } }).listing;
    assert.equal(listing.sku, 'SANDBOX-MUG');
    assert.deepEqual(listing.variantSkus, ['SANDBOX-MUG-BLUE', 'SANDBOX-MUG-RED']);
    // Products, orders in every state, and the storefront/shipping/3PL apps answered by the partner simulator.
    const seeded = out as unknown as { products: string[]; orders: { state: string; orderNumber: string }[] };
    assert.ok(seeded.products.includes('SANDBOX-TEAPOT') && seeded.products.length >= 7, seeded.products.join());
    assert.deepEqual(seeded.orders.map((o) => o.state), ['to ship', 'backordered', 'partly shipped', 'shipped', 'returned', 'refunded']);
    assert.deepEqual(
      out.apps.map((a) => a.callbackBaseUrl),
      out.apps.map((a) => (a.kind === 'INVENTORY' ? null : `https://partner-simulator.invalid/apps/${a.appId}`)),
    );
    // The seller's console sign-in, printed once: it signs in to the sandbox account.
    const consoleUser = (out as unknown as { console: { url: string; email: string; password: string; role: string } }).console;
    assert.equal(consoleUser.url, 'http://127.0.0.1:8181/console');
    assert.equal(consoleUser.role, 'OWNER');
    assert.equal(consoleUser.email, `owner+${out.account.accountId}@sandbox.example`);

    await withDb(async (handle) => {
      const signedIn = await signIn(handle.db, consoleUser.email, consoleUser.password, '127.0.0.1', new Date());
      assert.ok(signedIn.ok && signedIn.user.kind === 'SELLER' && signedIn.user.accountId === out.account.accountId);
      for (const token of [out.sellerToken.accessToken, ...out.apps.map((a) => a.accessToken)]) {
        const principal = await authenticateToken(handle, token);
        assert.equal(principal?.accountId, out.account.accountId);
      }
      assert.equal((await listInstallations(handle.db, out.account.accountId)).length, 4);
      const variants = await handle.db
        .selectFrom('listing_variants')
        .select(['sku', 'merchant_quantity', 'storefront_quantity'])
        .where('account_id', '=', out.account.accountId)
        .orderBy('sku')
        .execute();
      assert.deepEqual(variants, [
        { sku: 'SANDBOX-MUG-BLUE', merchant_quantity: 25, storefront_quantity: 5 },
        { sku: 'SANDBOX-MUG-RED', merchant_quantity: 10, storefront_quantity: 0 },
      ]);
    });
  });

  it('exits with code 1 and the message on stderr, nothing on stdout, when a command fails', async () => {
    const run = await cli(dataDir, ['token', 'create', '--account', '999999', '--scopes', 'inventory']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /account 999999 not found/);
    assert.equal(run.stdout, '');
  });
});

/**
 * The same commands in process (fast, and on PostgreSQL too): the database is a temp SQLite file, or a
 * fresh PostgreSQL schema chosen through the connection string's search_path.
 */
describe('operator CLI commands', () => {
  let dataDir: string;
  let config: Config;
  let dropSchema: () => Promise<void> = async () => {};
  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'mcs-cli-'));
    let databaseUrl: string | null = null;
    const url = process.env.TEST_DATABASE_URL;
    if (url) {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      await withSchemaLock(url, 'shared', async (admin) => void (await admin.query(`create schema ${schema}`)));
      const withSchema = new URL(url);
      withSchema.searchParams.set('options', `-c search_path=${schema}`);
      databaseUrl = withSchema.toString();
      dropSchema = () => withSchemaLock(url, 'exclusive', async (admin) => void (await admin.query(`drop schema ${schema} cascade`)));
    }
    config = testConfig({ dataDir, databaseUrl, logLevel: 'silent', serverSecret: 'cli-test-secret-0123456789abcdef0123456789' });
  });
  after(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await dropSchema();
  });

  /** Runs one command line; returns what it printed, or throws what the CLI would report. */
  async function run(...args: string[]): Promise<string> {
    let out = '';
    const program = new Command().exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
    registerAdminCommands(program, () => config, withDeps, (text) => {
      out += text;
    });
    registerSandboxCommand(program, () => config, withDeps, (text) => {
      out += text;
    });
    // Every CLI command migrates first; on PostgreSQL that must not race a parallel test file's schema drop.
    await schemaGuard(() => program.parseAsync(args, { from: 'user' }));
    return out;
  }
  const json = async <T>(...args: string[]) => JSON.parse(await run(...args, '--json')) as T;

  async function withDb<T>(fn: (db: DbHandle) => Promise<T>): Promise<T> {
    return schemaGuard(() => withDeps(config, (deps) => fn(deps.db)));
  }

  function schemaGuard<T>(fn: () => Promise<T>): Promise<T> {
    const url = process.env.TEST_DATABASE_URL;
    return url ? withSchemaLock(url, 'shared', () => fn()) : fn();
  }

  it('runs account, warehouse, app, install, token and revocation commands end to end', async () => {
    const { accountId } = await json<{ accountId: number }>('account', 'create', '--name', 'CLI seller');
    const dock = await json<{ warehouseId: number; channelFulfilled: boolean }>(
      'warehouse', 'create', '--account', String(accountId), '--name', 'Dock',
    );
    assert.equal(dock.channelFulfilled, false);
    const network = await json<{ channelFulfilled: boolean }>(
      'warehouse', 'create', '--account', String(accountId), '--name', 'Network', '--channel-fulfilled',
    );
    assert.equal(network.channelFulfilled, true);

    const app = await json<{ appId: number; clientId: string; clientSecret: string }>(
      'app', 'register', '--name', 'CLI Inventory', '--email', 'dev@cli.example', '--redirect-uri', 'https://cli.example/cb',
      '--kind', 'INVENTORY', '--scopes', 'inventory:self,inventory',
    );
    assert.match(app.clientSecret, /^[0-9a-f]{64}$/);

    const installed = await json<{ installationId: number; integrationId: number; code: string; redirectUrl: string }>(
      'install', '--account', String(accountId), '--app', String(app.appId), '--warehouse', `${dock.warehouseId}=DOCK-1`,
    );
    assert.equal(installed.integrationId, installed.installationId);
    assert.equal(installed.redirectUrl, `https://cli.example/cb/?client_id=${app.clientId}&code=${installed.code}`);

    const issued = await json<{ tokenId: number; access_token: string; token_type: string; scopes: string[] }>(
      'token', 'create', '--account', String(accountId), '--scopes', 'inventory', '--scopes', 'report',
    );
    assert.equal(issued.token_type, 'bearer');
    assert.deepEqual(issued.scopes, ['inventory', 'report']);
    assert.ok(await withDb((db) => authenticateToken(db, issued.access_token)));

    const revoked = await run('token', 'revoke', '--account', String(accountId), '--token-id', String(issued.tokenId));
    assert.match(revoked, /^status +REVOKED$/m);
    assert.equal(await withDb((db) => authenticateToken(db, issued.access_token)), null);

    const rotated = await json<{ clientId: string; clientSecret: string; previousSecretsValidUntil: string }>(
      'app', 'rotate-secrets', '--app', String(app.appId), '--overlap-seconds', '60',
    );
    assert.equal(rotated.clientId, app.clientId);
    assert.notEqual(rotated.clientSecret, app.clientSecret);

    const uninstalled = await json<{ installationId: number; status: string }>(
      'installation', 'revoke', '--account', String(accountId), '--installation', String(installed.installationId),
    );
    assert.deepEqual(uninstalled, { installationId: installed.installationId, status: 'REVOKED' });
    const [entry] = await withDb((db) => listInstallations(db.db, accountId));
    assert.equal(entry?.status, 'REVOKED');
  });

  it('installs a sales channel with a storefront name', async () => {
    const { accountId } = await json<{ accountId: number }>('account', 'create', '--name', 'Channel seller');
    const app = await json<{ appId: number }>(
      'app', 'register', '--name', 'eBay', '--email', 'dev@ebay.example', '--redirect-uri', 'https://ebay.example/cb',
      '--kind', 'SALES_CHANNEL', '--scopes', 'listing:self',
    );
    const installed = await json<{ storefrontId: number; installationId: number }>(
      'install', '--account', String(accountId), '--app', String(app.appId), '--storefront-name', 'eBay DE',
    );
    assert.equal(installed.storefrontId, installed.installationId);
    const [entry] = await withDb((db) => listInstallations(db.db, accountId));
    assert.equal(entry?.storefrontName, 'eBay DE');
  });

  it('prints a readable sandbox summary with the tokens and the curl examples', async () => {
    const out = await run('sandbox', '--name', 'Readable seller');
    assert.match(out, /^Sandbox account \d+ "Readable seller"/);
    assert.match(out, /Marketplace network \(channel-fulfilled\)/);
    for (const kind of ['SALES_CHANNEL', 'SHIPPING', 'INVENTORY', 'THIRD_PARTY_LOGISTICS']) assert.match(out, new RegExp(`^${kind}: `, 'm'));
    assert.match(out, /client secret +[0-9a-f]{64}/);
    assert.match(out, /access token +mcs_/);
    const seller = /Seller token \(all scopes, token \d+\):\n {2}(mcs_\S+)/.exec(out)?.[1];
    assert.ok(seller);
    assert.ok(await withDb((db) => authenticateToken(db, seller)));
    assert.ok(out.includes(`curl -s -H "Authorization: Bearer ${seller}" "http://127.0.0.1:8080/v1/warehouses"`));
    // The SQLite file, or on PostgreSQL the URL without a password.
    assert.ok(out.includes(`Written to ${databaseLabel(config)}`), out);
    if (config.databaseUrl === null) assert.ok(out.includes(`Written to ${path.join(dataDir, 'service.db')}`), out);
    assert.match(out, /^Examples use http:\/\/127\.0\.0\.1:8080 from HOST and PORT: no server has recorded its address/m);
    assert.match(out, /\/v1\/inventory\?warehouses=\d+,\d+"/);
    assert.match(out, /^Listing \d+ "SANDBOX-MUG" on the storefront, variants SANDBOX-MUG-BLUE, SANDBOX-MUG-RED/m);
    assert.match(out, /\/v2\/storefront\/listing\/new"/);
    assert.match(out, /^ {2}callbacks {7}https:\/\/partner-simulator\.invalid\/apps\/\d+ \(the partner simulator\)$/m);
    assert.match(out, /^Products: SANDBOX-MUG-BLUE, SANDBOX-MUG-RED, SANDBOX-TEAPOT, /m);
    assert.match(out, /^Orders: #\d+ to ship, #\d+ backordered, #\d+ partly shipped, #\d+ shipped, #\d+ returned, #\d+ refunded$/m);
    assert.match(out, /^Console \(seller owner\): http:\/\/127\.0\.0\.1:8080\/console\n {2}email {5}owner\+\d+@sandbox\.example\n {2}password {2}\S{20}$/m);
  });

  it('refuses bad input with the domain message and changes nothing', async () => {
    const { accountId } = await json<{ accountId: number }>('account', 'create', '--name', 'Strict seller');
    const fails = async (pattern: RegExp, ...args: string[]) => {
      await assert.rejects(run(...args), (error: unknown) => {
        assert.ok(isAppError(error) || error instanceof CommanderError, String(error));
        assert.match((error as Error).message, pattern);
        return true;
      });
    };
    await fails(
      /kind: must be one of SALES_CHANNEL, SHIPPING, INVENTORY, THIRD_PARTY_LOGISTICS, SELLER/,
      'app', 'register', '--name', 'X', '--email', 'x@x.example', '--redirect-uri', 'https://x.example/cb', '--kind', 'ROBOT', '--scopes', 'inventory',
    );
    await fails(/unknown scope\(s\) root/, 'token', 'create', '--account', String(accountId), '--scopes', 'inventory,root');
    await fails(/account 999999 not found/, 'token', 'create', '--account', '999999', '--scopes', 'inventory');
    await fails(/--account/, 'install', '--account', 'one', '--app', '1');
    await fails(/expected <warehouseId>=<warehouseUniqueId>/, 'install', '--account', String(accountId), '--app', '1', '--warehouse', 'DOCK');
    await fails(/--overlap-seconds/, 'app', 'rotate-secrets', '--app', '1', '--overlap-seconds', '-5');
    await fails(/name: must not be blank/, 'warehouse', 'create', '--account', String(accountId), '--name', ' ');
    await json('warehouse', 'create', '--account', String(accountId), '--name', 'Only');
    await fails(/"Only" already exists/, 'warehouse', 'create', '--account', String(accountId), '--name', 'Only');
    const warehouses = await withDb(async (db) =>
      db.db.selectFrom('warehouses').select('name').where('account_id', '=', accountId).execute(),
    );
    assert.deepEqual(warehouses.map((w) => w.name), ['Only']);
  });
});

/** Spawns `serve` on a free port and resolves with its address once it prints the listening line. */
function startServer(dataDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', WORKER: 'off' };
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'NODE_ENV', 'PUBLIC_BASE_URL', 'ADMIN_TOKEN', 'SERVER_SECRET']) delete env[name];
  const child = spawn(process.execPath, mainCommand(['serve']), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += String(chunk);
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1]!,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.stderr.on('data', (chunk: Buffer) => (out += String(chunk)));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** Runs a command line as the docs show it, returning stdout and stderr apart. */
function shell(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: ROOT, env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('sandbox beside a running server', { skip }, () => {
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'mcs-cli-server-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('`npm run --silent cli -- sandbox --json` prints pure JSON whose URLs use the port the server listens on', async () => {
    const server = await startServer(dataDir);
    try {
      assert.doesNotMatch(server.url, /:8181$/);
      // The shell's PORT says something else: the server's own record wins.
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '8181', HOST: '127.0.0.1' };
      for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'NODE_ENV', 'PUBLIC_BASE_URL', 'ADMIN_TOKEN', 'SERVER_SECRET']) delete env[name];
      const run = await shell('npm', ['run', '--silent', 'cli', '--', 'sandbox', '--json'], env);
      assert.equal(run.code, 0, run.stderr);
      const out = JSON.parse(run.stdout) as SandboxSummary & { baseUrl: string; baseUrlSource: string; database: string; examples: string[] };
      assert.equal(out.baseUrl, server.url);
      assert.equal(out.baseUrlSource, 'server');
      assert.equal(out.database, path.join(dataDir, 'service.db'));
      assert.ok(out.examples[0]!.includes(`"${server.url}/v1/warehouses"`), out.examples[0]);
      // The printed example works as printed.
      const res = await fetch(`${server.url}/v1/warehouses`, { headers: { authorization: `Bearer ${out.sellerToken.accessToken}` } });
      assert.equal(res.status, 200);
    } finally {
      await server.stop();
    }
    const later = await cli(dataDir, ['sandbox']);
    assert.equal(later.code, 0, later.stderr);
    assert.ok(later.stdout.includes(`Examples use ${server.url}, the address the last server (pid `), later.stdout);
    assert.match(later.stdout, /not running now\) recorded when it started\./);
  });
});

