import type { Command } from 'commander';
import type { Config } from '../config.js';
import { withTx } from '../db/tx.js';
import { buildSandbox, sandboxExamples, type SandboxSummary } from '../domain/accounts/sandbox.js';
import type { WithDeps } from './admin-commands.js';
import { seedSandboxListing, type SandboxListing } from './sandbox-listing.js';
import { writeStdout, type Write } from './options.js';

/** Where this service answers, for the example commands: PUBLIC_BASE_URL, else HOST:PORT. */
export function baseUrlOf(config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const host = wildcard ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

/** The storefront example: the sandbox listing in the channel's `listing/new` poll. */
function listingExample(summary: SandboxSummary, baseUrl: string): string[] {
  const channel = summary.apps.find((a) => a.storefrontId !== null);
  if (!channel) return [];
  return [`curl -s -H "Authorization: Bearer ${channel.accessToken}" "${baseUrl.replace(/\/+$/, '')}/v2/storefront/listing/new"`];
}

export function formatSandbox(summary: SandboxSummary, examples: string[], listing: SandboxListing | null = null): string {
  const lines: string[] = [];
  const { account } = summary;
  lines.push(`Sandbox account ${account.accountId} "${account.name}"`, '', 'Warehouses:');
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
  }
  lines.push('', `Seller token (all scopes, token ${summary.sellerToken.tokenId}):`, `  ${summary.sellerToken.accessToken}`);
  if (listing) {
    lines.push('', `Listing ${listing.listingId} "${listing.sku}" on the storefront, variants ${listing.variantSkus.join(', ')} (stocked; no channel ids yet)`);
  }
  lines.push('', 'Try:', ...examples.map((e) => `  ${e}`), '');
  return lines.join('\n');
}

export function registerSandboxCommand(
  program: Command,
  config: () => Config,
  withDeps: WithDeps,
  write: Write = writeStdout,
): void {
  program
    .command('sandbox')
    .description('create a sandbox seller with warehouses, one installed app of each kind, and their tokens')
    .option('--name <name>', 'account name', 'Sandbox seller')
    .option('--json', 'print JSON instead of the readable summary')
    .action((o: { name: string; json?: boolean }) => {
      const cfg = config();
      return withDeps(cfg, async (deps) => {
        const now = deps.clock.now();
        const { summary, listing } = await withTx(deps.db.db, async (tx) => {
          const built = await buildSandbox(tx, deps.signer, now, { accountName: o.name });
          return { summary: built, listing: await seedSandboxListing(tx, built, now) };
        });
        const baseUrl = baseUrlOf(cfg);
        const examples = [...sandboxExamples(summary, baseUrl), ...listingExample(summary, baseUrl)];
        write(o.json ? `${JSON.stringify({ ...summary, listing, baseUrl, examples }, null, 2)}\n` : formatSandbox(summary, examples, listing));
      });
    });
}
