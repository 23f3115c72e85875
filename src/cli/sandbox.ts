import type { Command } from 'commander';
import { databaseLabel, type Config } from '../config.js';
import { isProcessRunning, listenUrl, readServerRecord } from '../lib/server-address.js';
import { withTx, type Tx } from '../db/tx.js';
import type { Signer } from '../lib/signer.js';
import { buildSandbox, sandboxExamples, type SandboxSummary } from '../domain/sandbox-partner/sandbox.js';
import type { WithDeps } from './admin-commands.js';
import { seedSandboxListing, type SandboxListing } from './sandbox-listing.js';
import { createSandboxConsoleUser, type SandboxConsoleUser } from './sandbox-console-user.js';
import { seedSandboxCatalog } from './sandbox-catalog.js';
import { seedSandboxOrders, type SandboxOrder } from './sandbox-orders.js';
import { writeStdout, type Write } from './options.js';

/** Where this service answers, from the CLI's own configuration: PUBLIC_BASE_URL, else HOST:PORT. */
export function baseUrlOf(config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>): string {
  return config.publicBaseUrl ?? listenUrl(config.host, config.port);
}

export interface ExampleTarget {
  baseUrl: string;
  /** Where baseUrl came from, said to the operator so a wrong guess is not a silent one. */
  source: 'server' | 'PUBLIC_BASE_URL' | 'HOST and PORT';
  note: string;
}

/**
 * The URL for the examples: what the server serving this database recorded when it started listening
 * (its PUBLIC_BASE_URL or real port), else the CLI's PUBLIC_BASE_URL, else the CLI's HOST and PORT.
 */
export function exampleTarget(config: Config, isRunning: (pid: number) => boolean = isProcessRunning): ExampleTarget {
  const record = readServerRecord(config.dataDir);
  if (record && record.database === databaseLabel(config)) {
    const server = isRunning(record.pid) ? `the server (pid ${record.pid})` : `the last server (pid ${record.pid}, not running now)`;
    return { baseUrl: record.url, source: 'server', note: `Examples use ${record.url}, the address ${server} recorded when it started.` };
  }
  const why = record
    ? 'the server recorded in DATA_DIR serves another database'
    : 'no server has recorded its address in DATA_DIR yet (start one with npm start)';
  if (config.publicBaseUrl) {
    return { baseUrl: config.publicBaseUrl, source: 'PUBLIC_BASE_URL', note: `Examples use PUBLIC_BASE_URL ${config.publicBaseUrl}: ${why}.` };
  }
  const baseUrl = baseUrlOf(config);
  return { baseUrl, source: 'HOST and PORT', note: `Examples use ${baseUrl} from HOST and PORT: ${why}.` };
}

/** The storefront example: the sandbox listing in the channel's `listing/new` poll. */
function listingExample(summary: SandboxSummary, baseUrl: string): string[] {
  const channel = summary.apps.find((a) => a.storefrontId !== null);
  if (!channel) return [];
  return [`curl -s -H "Authorization: Bearer ${channel.accessToken}" "${baseUrl.replace(/\/+$/, '')}/v2/storefront/listing/new"`];
}

export function formatSandbox(
  summary: SandboxSummary,
  examples: string[],
  listing: SandboxListing | null = null,
  where: { database: string; note: string } | null = null,
  consoleUser: (SandboxConsoleUser & { url: string }) | null = null,
  seeded: { products: string[]; orders: SandboxOrder[] } | null = null,
): string {
  const lines: string[] = [];
  const { account } = summary;
  lines.push(`Sandbox account ${account.accountId} "${account.name}"`);
  if (where) lines.push(`Written to ${where.database}`);
  lines.push('', 'Warehouses:');
  for (const w of summary.warehouses) {
    lines.push(`  ${String(w.warehouseId).padStart(4)}  ${w.name}${w.channelFulfilled ? ' (channel-fulfilled)' : ''}`);
  }
  for (const a of summary.apps) {
    lines.push('', `${a.kind}: "${a.name}" (app ${a.appId}, installation ${a.installationId})`);
    if (a.storefrontId !== null) lines.push(`  storefront      ${a.storefrontId} "${a.storefrontName}"`);
    for (const m of a.warehouses) lines.push(`  warehouse       ${m.warehouseId} as "${m.warehouseUniqueId}"`);
    lines.push(
      `  scopes          ${a.scopes.join(', ')}`,
      `  client id       ${a.clientId}`,
      `  client secret   ${a.clientSecret}`,
      `  signing secret  ${a.callbackSigningSecret}`,
      `  redirect URI    ${a.redirectUri}`,
      `  access token    ${a.accessToken}`,
    );
    if (a.callbackBaseUrl) lines.push(`  callbacks       ${a.callbackBaseUrl} (the partner simulator)`);
  }
  lines.push('', `Seller token (all scopes, token ${summary.sellerToken.tokenId}):`, `  ${summary.sellerToken.accessToken}`);
  if (listing) {
    lines.push('', `Listing ${listing.listingId} "${listing.sku}" on the storefront, variants ${listing.variantSkus.join(', ')} (stocked; no channel ids yet)`);
  }
  if (seeded) {
    lines.push('', `Products: ${seeded.products.join(', ')}`);
    lines.push(`Orders: ${seeded.orders.map((o) => `#${o.orderNumber} ${o.state}`).join(', ')}`);
  }
  if (consoleUser) {
    lines.push('', `Console (seller ${consoleUser.role.toLowerCase()}): ${consoleUser.url}`, `  email     ${consoleUser.email}`, `  password  ${consoleUser.password}`);
  }
  lines.push('', ...(where ? [where.note] : []), 'Try:', ...examples.map((e) => `  ${e}`), '');
  return lines.join('\n');
}

export interface FullSandbox {
  summary: SandboxSummary;
  listing: SandboxListing | null;
  products: string[];
  orders: SandboxOrder[];
  user: SandboxConsoleUser;
}

/**
 * Everything `sandbox` creates, in the caller's one transaction: the account with its apps (the storefront,
 * shipping and 3PL ones played by the partner simulator), catalog, listing, orders and console user — all of
 * it or nothing, so a failed run leaves no half sandbox and running again simply makes another one.
 */
export async function createFullSandbox(tx: Tx, signer: Signer, now: Date, accountName: string): Promise<FullSandbox> {
  const summary = await buildSandbox(tx, signer, now, { accountName });
  const products = await seedSandboxCatalog(tx, summary, now);
  const listing = await seedSandboxListing(tx, summary, now);
  const orders = await seedSandboxOrders(tx, summary, now);
  const user = await createSandboxConsoleUser(tx, summary.account.accountId, now);
  return { summary, listing, products, orders, user };
}

export function registerSandboxCommand(
  program: Command,
  config: () => Config,
  withDeps: WithDeps,
  write: Write = writeStdout,
): void {
  program
    .command('sandbox')
    .description('create a sandbox seller with warehouses, one installed app of each kind and their tokens, products, orders in every state, and a partner simulator answering the apps\' callbacks')
    .option('--name <name>', 'account name', 'Sandbox seller')
    .option('--json', 'print JSON instead of the readable summary')
    .action((o: { name: string; json?: boolean }) => {
      const cfg = config();
      return withDeps(cfg, async (deps) => {
        const now = deps.clock.now();
        const { summary, listing, user, products, orders } = await withTx(deps.db.db, (tx) => createFullSandbox(tx, deps.signer, now, o.name));
        const target = exampleTarget(cfg);
        const database = databaseLabel(cfg);
        const { baseUrl } = target;
        const examples = [...sandboxExamples(summary, baseUrl), ...listingExample(summary, baseUrl)];
        const consoleUser = { ...user, url: `${baseUrl.replace(/\/+$/, '')}/console` };
        write(
          o.json
            ? `${JSON.stringify({ ...summary, listing, products, orders, console: consoleUser, database, baseUrl, baseUrlSource: target.source, examples }, null, 2)}\n`
            : formatSandbox(summary, examples, listing, { database, note: target.note }, consoleUser, { products, orders }),
        );
      });
    });
}
