#!/usr/bin/env node
import { Command } from 'commander';
import { ConfigError, loadConfig, type Config } from './config.js';
import { registerCliCommands } from './cli/index.js';
import { serve } from './server.js';

/** Entry point for `npm start` (serve) and `npm run cli -- <command>`. */
function configOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

const program = new Command()
  .name('mcs')
  .description('Multichannel Commerce Service: server and operator commands')
  .showHelpAfterError();

program
  .command('serve')
  .description('serve the API (migrates the database first)')
  .action(async () => {
    await serve(configOrExit());
  });

registerCliCommands(program, configOrExit);

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
