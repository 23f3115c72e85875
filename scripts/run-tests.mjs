#!/usr/bin/env node
// Runs every test file under test/ with node's test runner (Node 20 has no glob in --test).
// That includes test/browser/*.test.ts (the console in Chromium; skipped when no Chromium is installed).
// TEST_DATABASE_URL=postgres://… runs the same tests on PostgreSQL; extra arguments narrow the files.
//
// The sources are first compiled to plain JavaScript under .test-build/run-<pid>/ (esbuild, a second or two, no type
// checking: `npm run typecheck` does that), and the tests run on that copy. Node's test runner starts a process
// per file, and each of them loading ~500 modules through tsx's loader hooks cost about 4 s more than loading
// the compiled files. Imports of the workspace's partner client are pointed at the copy compiled from its
// sources (its own dist/ exists only after `npm run build -w @mcs/partner-client`, which a fresh clone has not
// run). Stack traces point at the TypeScript lines (inline source maps, --enable-source-maps).
// TEST_WITH_TSX=1 runs everything under tsx as before. TEST_TIMINGS=<file> also writes each file's test time there,
// slowest first (scripts/test-file-timings.mjs), to find what to put in SLOW_FIRST or to speed up.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

// One copy per run (several runs may share a checkout), removed when the run ends.
const BUILD_ROOT = '.test-build';
const BUILD_DIR = path.join(BUILD_ROOT, `run-${process.pid}`);
/** The trees the tests import from, compiled together so relative imports keep working in the copy. */
const SOURCE_TREES = ['src', 'test', 'scripts', 'packages/client/src', 'packages/client/examples'];
/** Workspace packages imported by name, and their sources' entry point in the copy. */
const WORKSPACE_ENTRIES = { '@mcs/partner-client': 'packages/client/src/index.js' };

function find(dir, keep) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : find(full, keep);
    return keep(full) ? [full] : [];
  });
}

function testFiles(filters) {
  const all = find('test', (f) => f.endsWith('.test.ts') && !f.split(path.sep).some((part) => part === 'helpers' || part === 'fixtures'));
  const chosen = all.filter((f) => filters.length === 0 || filters.some((p) => f.includes(p))).sort();
  return chosen.sort((a, b) => slowRank(a) - slowRank(b));
}

/**
 * The files that take longest (10–30 s each; the browser tests run Chromium, the crash tests restart child
 * processes), started first: the runner starts files in the order given, so a slow file started last would
 * run alone at the end while the other lanes sit idle. Slowest first; the rest keep their path order.
 */
const SLOW_FIRST = [
  'test/browser/',
  'report-resume-crash',
  'test/http/cli.test',
  'docs-curls',
  'orders-routing',
  'jobs-worker-cli',
  'idempotency-crash',
  'orders-kits',
  'ingestion-apply-crash',
  'trust-proxy',
  'report-imports-orders',
  'inventory-concurrency',
  'callback-crash',
];

function slowRank(file) {
  const normal = file.split(path.sep).join('/');
  const rank = SLOW_FIRST.findIndex((part) => normal.includes(part));
  return rank === -1 ? SLOW_FIRST.length : rank;
}

/** One test file per core (at least two), or TEST_CONCURRENCY. */
function concurrency() {
  const asked = Number(process.env.TEST_CONCURRENCY);
  return Number.isInteger(asked) && asked > 0 ? asked : Math.max(2, availableParallelism());
}

async function compile() {
  const { build } = await import('esbuild');
  removeStaleCopies();
  const entryPoints = SOURCE_TREES.flatMap((tree) => find(tree, (f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts')));
  const result = await build({
    entryPoints,
    outdir: BUILD_DIR,
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // JSX settings come from tsconfig.json, as under tsx.
    tsconfig: 'tsconfig.json',
    sourcemap: 'inline',
    logLevel: 'warning',
    write: false,
  });
  for (const file of result.outputFiles) {
    let text = file.text;
    for (const [name, entry] of Object.entries(WORKSPACE_ENTRIES)) {
      if (!text.includes(`"${name}"`)) continue;
      const relative = path.relative(path.dirname(file.path), path.resolve(BUILD_DIR, entry)).split(path.sep).join('/');
      const target = JSON.stringify(relative.startsWith('.') ? relative : `./${relative}`);
      // Only import specifiers (esbuild prints them double-quoted), not the name in a string elsewhere.
      text = text.replaceAll(`from "${name}"`, `from ${target}`).replaceAll(`import("${name}")`, `import(${target})`);
    }
    mkdirSync(path.dirname(file.path), { recursive: true });
    writeFileSync(file.path, text);
  }
}

/** Copies left by runs that were killed (a day old). */
function removeStaleCopies() {
  const dayAgo = Date.now() - 86_400_000;
  for (const name of existsSync(BUILD_ROOT) ? readdirSync(BUILD_ROOT) : []) {
    const full = path.join(BUILD_ROOT, name);
    if (statSync(full).mtimeMs < dayAgo) rmSync(full, { recursive: true, force: true });
  }
}

function run(args, files) {
  if (files.length === 0) return 0;
  const timings = process.env.TEST_TIMINGS
    ? ['--test-reporter-destination=stdout', `--test-reporter=${path.resolve('scripts/test-file-timings.mjs')}`, `--test-reporter-destination=${path.resolve(process.env.TEST_TIMINGS)}`]
    : [];
  const reporters = ['--test-reporter=spec', ...timings];
  const result = spawnSync(process.execPath, [...args, '--test', `--test-concurrency=${concurrency()}`, ...reporters, ...files], { stdio: 'inherit' });
  return result.status ?? 1;
}

const files = testFiles(process.argv.slice(2));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const database = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite';
if (process.env.TEST_WITH_TSX === '1') {
  console.log(`running ${files.length} test files on ${database} (under tsx)`);
  process.exit(run(['--import', 'tsx'], files));
}
await compile();
process.on('exit', () => rmSync(BUILD_DIR, { recursive: true, force: true }));
console.log(`running ${files.length} test files on ${database}`);
// The run's test processes share one migrated SQLite template database there (test/helpers/app.ts).
process.env.TEST_TEMPLATE_DIR = path.resolve(BUILD_DIR, 'templates');
process.exit(run(['--enable-source-maps'], files.map((f) => path.join(BUILD_DIR, f.replace(/\.ts$/, '.js')))));
