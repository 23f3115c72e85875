import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Node's arguments for running the service's command line (`src/main.ts …`) in a child process, with
 * test-only preloads (repository-relative paths such as ./test/fixtures/crash-after-chunks.ts). Run from the
 * repository root.
 *
 * When the tests run from the compiled copy scripts/run-tests.mjs makes (.test-build/run-<pid>/), the child
 * runs that copy's src/main.js too: the same sources, compiled the same way as the code under test, and it
 * starts in about 2.5 s where loading the sources through tsx took 7–9 s on the 2-core CI machine, for each
 * of the dozens of processes the CLI and crash tests start. Under tsx (TEST_WITH_TSX=1) the child uses tsx
 * as before.
 */
export function mainCommand(args: string[], preloads: string[] = []): string[] {
  if (COMPILED_COPY) {
    const inCopy = (file: string) => path.join(COMPILED_COPY!, file.replace(/\.ts$/, '.js'));
    return ['--enable-source-maps', ...preloads.flatMap((p) => ['--import', pathToFileURL(inCopy(p)).href]), inCopy('src/main.ts'), ...args];
  }
  return ['--import', 'tsx', ...preloads.flatMap((p) => ['--import', p]), 'src/main.ts', ...args];
}

/** The compiled copy this file is part of (it sits at test/helpers/ in it), or null when running the sources. */
const COMPILED_COPY = ((): string | null => {
  if (!import.meta.url.endsWith('.js')) return null;
  const copy = path.resolve(import.meta.dirname, '../..');
  return existsSync(path.join(copy, 'src', 'main.js')) ? copy : null;
})();
