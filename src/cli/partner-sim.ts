import { InvalidArgumentError, type Command } from 'commander';
import type { Write } from './options.js';
import { writeStdout } from './options.js';

interface SimCliOptions {
  port: number;
  host: string;
  secret?: string;
  previousSecret?: string;
  basePath: string;
}

function port(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('must be a port number (0-65535)');
  return Number(value);
}

/**
 * `partner-sim`: a local partner that receives, verifies and logs callbacks until SIGINT or SIGTERM
 * (docs/partners/callbacks.md, "Try it locally"). It needs no configuration of the service itself.
 */
export function registerPartnerSimCommand(program: Command, write: Write = writeStdout, env: NodeJS.ProcessEnv = process.env): void {
  program
    .command('partner-sim')
    .description('run a local partner that receives, verifies (5.5) and logs callbacks until SIGINT/SIGTERM')
    .option('--port <port>', 'port to listen on', port, 9090)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--secret <secret>', "the app's callback signing secret (or PARTNER_SIM_SECRET)")
    .option('--previous-secret <secret>', 'the previous signing secret, during a rotation (or PARTNER_SIM_PREVIOUS_SECRET)')
    .option('--base-path <path>', 'path of the registered callback base URL, e.g. /callbacks', '')
    .action(async (o: SimCliOptions) => {
      const secret = o.secret ?? env.PARTNER_SIM_SECRET;
      if (!secret) throw new Error('partner-sim needs --secret <callbackSigningSecret> or PARTNER_SIM_SECRET');
      const previous = o.previousSecret ?? env.PARTNER_SIM_PREVIOUS_SECRET;
      // Loaded here, not at the top: the server module imports the partner client by name. Under tsx (npm run
      // cli) that is its source (tsconfig paths); compiled, it is packages/client/dist, which exists only after
      // `npm run build --workspace @mcs/partner-client`, so the rest of the CLI must not need it.
      const { startPartnerSim } = await import('./partner-sim-server.js').catch((error: unknown) => {
        throw new Error(
          `partner-sim needs the partner client: use npm run cli -- partner-sim, or build it first with npm run build --workspace @mcs/partner-client (${error instanceof Error ? error.message : String(error)})`,
        );
      });
      const sim = await startPartnerSim({
        port: o.port,
        host: o.host,
        basePath: o.basePath,
        secrets: previous ? [secret, previous] : [secret],
        log: (line) => write(`${line}\n`),
      });
      write(`partner-sim listening; register callbackBaseUrl ${sim.callbackBaseUrl} (stop with Ctrl-C or SIGTERM)\n`);
      const signal = await new Promise<string>((resolve) => {
        process.once('SIGINT', () => resolve('SIGINT'));
        process.once('SIGTERM', () => resolve('SIGTERM'));
      });
      await sim.close();
      write(`${signal}: partner-sim stopped after ${sim.calls.length} call(s)\n`);
    });
}
