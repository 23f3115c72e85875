import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The repository's root: the nearest directory above this file with a package.json. Tests run from their
 * sources (tsx) or from a compiled copy under .test-build/ (scripts/run-tests.mjs), so a fixed number of
 * "../" would point at different places; the walk finds the same root from both.
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const REPO_ROOT = findRoot(import.meta.dirname);
