import path from 'node:path';

// A node:test reporter (used by run-tests.mjs when TEST_TIMINGS is set): each test file's time, slowest first.
// The time is the sum of the file's top-level tests, so it leaves out the process start and module loading.
export default async function* testFileTimings(source) {
  const totals = new Map();
  for await (const event of source) {
    const { type, data } = event;
    if ((type === 'test:pass' || type === 'test:fail') && data.nesting === 0 && data.file) {
      totals.set(data.file, (totals.get(data.file) ?? 0) + (data.details?.duration_ms ?? 0));
    }
  }
  const rows = [...totals].sort((a, b) => b[1] - a[1]);
  const sum = rows.reduce((total, [, ms]) => total + ms, 0);
  for (const [file, ms] of rows) {
    // The compiled copy's path (.test-build/run-<pid>/…) or, through its source map, the test's own.
    const shown = path.relative(process.cwd(), file).replace(/^\.test-build\/run-\d+\//, '').replace(/\.js$/, '.ts');
    yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${shown}\n`;
  }
  yield `${(sum / 1000).toFixed(0).padStart(7)} s  in all, over ${rows.length} files\n`;
}
