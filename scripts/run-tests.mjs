#!/usr/bin/env node
// Runs every test file under test/ with node's test runner (Node 20 has no glob in --test).
// That includes test/browser/*.test.ts (the console in Chromium; skipped when no Chromium is installed).
// TEST_DATABASE_URL=postgres://… runs the same tests on PostgreSQL; extra arguments narrow the files.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'helpers' || name === 'fixtures' ? [] : find(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

const filters = process.argv.slice(2);
const files = find('test').filter((f) => filters.length === 0 || filters.some((p) => f.includes(p))).sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
console.log(`running ${files.length} test files on ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}`);
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
