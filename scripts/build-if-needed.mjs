#!/usr/bin/env node
// `npm start` runs this first: compile TypeScript when dist/ is missing or older than any source file.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newest(dir) {
  let latest = 0;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const s = statSync(full);
    latest = Math.max(latest, s.isDirectory() ? newest(full) : s.mtimeMs);
  }
  return latest;
}

const entry = 'dist/src/main.js';
const stale = !existsSync(entry) || statSync(entry).mtimeMs < Math.max(newest('src'), statSync('package.json').mtimeMs);
if (stale) {
  console.log('building (TypeScript → dist/)…');
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
