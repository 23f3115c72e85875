import type { Command } from 'commander';
import type { Config } from '../config.js';
import { withTx, type Tx } from '../db/tx.js';
import { createAccount, issueSellerToken } from '../domain/accounts/accounts.js';
import { DEFAULT_ROTATION_OVERLAP_SECONDS, registerApp, rotateAppSecrets } from '../domain/accounts/apps.js';
import { installApp } from '../domain/accounts/installations.js';
import { uninstallApp } from '../domain/accounts/integration-changes.js';
import { warehouseWorkPort } from '../domain/fulfillment/warehouse-handover.js';
import { revokeToken } from '../domain/accounts/tokens.js';
import { createWarehouse } from '../domain/accounts/warehouses.js';
import type { Deps } from '../deps.js';
import { commaList, positiveId, printResult, warehouseMapping, wholeNumber, writeStdout, type Write } from './options.js';

interface RegisterAppOptions {
  name: string;
  email: string;
  redirectUri: string;
  kind: string;
  scopes: string[];
  logoUrl?: string;
  callbackBaseUrl?: string;
  json?: boolean;
}

interface InstallOptions {
  account: number;
  app: number;
  warehouse?: { warehouseId: number; warehouseUniqueId: string }[];
  storefrontName?: string;
  json?: boolean;
}

export type WithDeps = <T>(config: Config, fn: (deps: Deps) => Promise<T>) => Promise<T>;

/**
 * The operator API's writes as commands, over the same domain functions. Secrets are printed to stdout
 * because the operator asked for them; they never go through the logger.
 */
export function registerAdminCommands(
  program: Command,
  config: () => Config,
  withDeps: WithDeps,
  write: Write = writeStdout,
): void {
  // Each command is one transaction, like the matching /admin route.
  const run = (fn: (tx: Tx, deps: Deps, now: Date) => Promise<object>, json?: boolean) =>
    withDeps(config(), async (deps) => {
      const now = deps.clock.now();
      printResult(write, await withTx(deps.db.db, (tx) => fn(tx, deps, now)), json);
    });

  const account = program.command('account').description('seller accounts');
  account
    .command('create')
    .description('create a seller account')
    .requiredOption('--name <name>', 'seller name')
    .option('--json', 'print JSON')
    .action((o: { name: string; json?: boolean }) => run((tx, d, now) => createAccount(tx, { name: o.name }, now), o.json));

  const warehouse = program.command('warehouse').description('warehouses of an account');
  warehouse
    .command('create')
    .description('create a warehouse')
    .requiredOption('--account <id>', 'account id', positiveId)
    .requiredOption('--name <name>', 'warehouse name, unique in the account')
    .option('--channel-fulfilled', "a sales channel's own fulfilment network", false)
    .option('--json', 'print JSON')
    .action((o: { account: number; name: string; channelFulfilled: boolean; json?: boolean }) =>
      run((tx, d, now) => createWarehouse(tx, o.account, { name: o.name, channelFulfilled: o.channelFulfilled }, now), o.json),
    );

  const app = program.command('app').description('partner applications');
  app
    .command('register')
    .description('register a partner application; prints its client credentials once')
    .requiredOption('--name <name>', 'app name (for a sales channel, the channel name)')
    .requiredOption('--email <email>', 'contact e-mail')
    .requiredOption('--redirect-uri <url>', 'OAuth redirect URI')
    .requiredOption('--kind <kind>', 'SALES_CHANNEL, SHIPPING, INVENTORY, THIRD_PARTY_LOGISTICS or SELLER')
    .requiredOption('--scopes <a,b>', 'scope labels, comma-separated', commaList)
    .option('--logo-url <url>', 'logo shown to sellers')
    .option('--callback-base-url <url>', 'where callbacks are delivered')
    .option('--json', 'print JSON')
    .action((o: RegisterAppOptions) =>
      run((tx, d, now) => {
        const input = {
          name: o.name,
          contactEmail: o.email,
          redirectUri: o.redirectUri,
          kind: o.kind,
          scopes: o.scopes,
          logoUrl: o.logoUrl ?? null,
          callbackBaseUrl: o.callbackBaseUrl ?? null,
        };
        return registerApp(tx, d.signer, input, now, { callbacksAllowPrivate: d.config.callbacksAllowPrivate });
      }, o.json),
    );
  app
    .command('rotate-secrets')
    .description("rotate an app's client secret and callback signing secret")
    .requiredOption('--app <id>', 'app id', positiveId)
    .option('--overlap-seconds <n>', 'how long the old secrets keep working', wholeNumber, DEFAULT_ROTATION_OVERLAP_SECONDS)
    .option('--json', 'print JSON')
    .action((o: { app: number; overlapSeconds: number; json?: boolean }) =>
      run((tx, d, now) => rotateAppSecrets(tx, d.signer, o.app, o.overlapSeconds, now), o.json),
    );

  program
    .command('install')
    .description('install an app on an account (the Install button); prints the one-time code')
    .requiredOption('--account <id>', 'account id', positiveId)
    .requiredOption('--app <id>', 'app id', positiveId)
    .option('--warehouse <id=uniqueId>', 'warehouse mapping, repeatable (integrations)', warehouseMapping)
    .option('--storefront-name <name>', 'storefront label (sales channels)')
    .option('--json', 'print JSON')
    .action((o: InstallOptions) =>
      run((tx, _d, now) => {
        const input = { appId: o.app, warehouses: o.warehouse, storefrontName: o.storefrontName ?? null };
        return installApp(tx, o.account, input, now, warehouseWorkPort);
      }, o.json),
    );

  const installation = program.command('installation').description('installations of apps on accounts');
  installation
    .command('revoke')
    .description('uninstall an app: revoke its installation and every token issued for it, and pull back its open work')
    .requiredOption('--account <id>', 'account id', positiveId)
    .requiredOption('--installation <id>', 'installation id', positiveId)
    .option('--json', 'print JSON')
    .action((o: { account: number; installation: number; json?: boolean }) =>
      run(async (tx, _d, now) => {
        const { installationId, status } = await uninstallApp(tx, o.account, o.installation, now, warehouseWorkPort);
        return { installationId, status };
      }, o.json),
    );

  const token = program.command('token').description('access tokens');
  token
    .command('create')
    .description('issue an ad-hoc seller token with chosen scopes')
    .requiredOption('--account <id>', 'account id', positiveId)
    .requiredOption('--scopes <a,b>', 'scope labels, comma-separated', commaList)
    .option('--json', 'print JSON')
    .action((o: { account: number; scopes: string[]; json?: boolean }) =>
      run(async (tx, d, now) => {
        const issued = await issueSellerToken(tx, o.account, o.scopes, now);
        return { tokenId: issued.tokenId, access_token: issued.accessToken, token_type: 'bearer', scopes: issued.scopes };
      }, o.json),
    );
  token
    .command('revoke')
    .description('revoke an access token of an account')
    .requiredOption('--account <id>', 'account id', positiveId)
    .requiredOption('--token-id <id>', 'token id', positiveId)
    .option('--json', 'print JSON')
    .action((o: { account: number; tokenId: number; json?: boolean }) =>
      run(async (tx, d, now) => {
        await revokeToken(tx, o.account, o.tokenId, now);
        return { tokenId: o.tokenId, accountId: o.account, status: 'REVOKED' };
      }, o.json),
    );
}
