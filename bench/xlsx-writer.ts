/**
 * .xlsx writer benchmark (issue 25): the same export written by each candidate writer, each in its own process
 * (so its module load and peak memory are its own), then read back and checked cell by cell.
 *
 *   npm run bench:xlsx            (or: node --import tsx bench/xlsx-writer.ts)
 *
 * Writers:
 * - `zlib`: the service's writer (src/domain/reports/exports/xlsx-sink.ts: worksheet XML deflated by
 *   node:zlib into src/lib/zip-writer.ts; no dependency);
 * - `exceljs`: exceljs 4.4's streaming WorkbookWriter, as the service used it before (bench/xlsx-exceljs-sink.ts);
 * - `write-excel-file`, `xlsx-write-stream`: only when BENCH_XLSX_EXTRA names a directory where they are
 *   installed (they are not dependencies of the service), e.g.
 *   `mkdir /tmp/xlsx-eval && cd /tmp/xlsx-eval && npm i write-excel-file@4.1.1 xlsx-write-stream@1.0.3`.
 *
 * The rows are those of an export: 12 columns of text, numbers, booleans and blanks (an inventory row with a
 * product's price, status and title), written through the RowSink interface in pages of 200 rows with a turn
 * of the event loop between pages, as run-export.ts does on SQLite; the bytes go to a file as the file store
 * reads them. Knobs: BENCH_XLSX_ROWS (100000), BENCH_XLSX_WRITERS (comma list), BENCH_XLSX_EXTRA,
 * BENCH_XLSX_VERIFY=0 (skip reading the cells back: exceljs's reader holds the whole workbook). It prints
 * the table (the `## .xlsx writer` section of bench/RESULTS.md is hand-copied from it).
 *
 * Measured per writer: memory after loading the writer's module (RSS, heap after a GC), peak RSS (the
 * process's maxRSS) and the largest heap seen after a page, time, the event loop's largest delay while writing
 * (monitorEventLoopDelay, which on a busy machine also counts time the process was not scheduled) and the
 * synchronous part of each writeRows call (the page's cells turned into bytes before its first wait: the
 * stretch the export holds the loop per page), file size. Checked on each file: the
 * zip's integrity (`unzip -tq`), then every row read back with exceljs's reader, each cell's value and type
 * against what was written (formula-like text stays text, numbers stay numbers, booleans, blanks, quotes,
 * newlines, CR, control characters, emoji, `_x0041_`-like text).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Cell, RowSink } from '../src/domain/reports/exports/export-format.js';

const PAGE = 200;
const HEADER = ['sku', 'warehouse_id', 'warehouse', 'available', 'onhand', 'reserved', 'assembled', 'bin_location', 'updated_at', 'price', 'active', 'title'];

/** Row i of the export (1-based); every 50th row carries the awkward values a validity check needs. */
function exportRow(i: number): Cell[] {
  const special = i % 50 === 0;
  const titles = ['=HYPERLINK("http://evil.example","click")', '+1 trick', '-300', '@wool', 'Tweed 🧥 jacket, "classic"\nline two', 'cr\r\nlf\tand tab', 'bell\u0007 and \u0001', '_x0041_ is not A', '<b> & </b>', '  padded  '];
  return [
    special ? `-${String(i).padStart(6, '0')}` : `SKU-${i}`,
    (i % 7) + 1,
    i % 2 ? 'North' : 'South',
    i % 1000,
    (i % 1000) + 3,
    i % 3,
    i % 4 === 0 ? null : i % 11,
    i % 5 === 0 ? null : `B-${i % 97}`,
    `2026-02-${String((i % 28) + 1).padStart(2, '0')}T09:30:00.000Z`,
    `${(i % 500) + 10}.${String(i % 100).padStart(2, '0')}`,
    i % 3 !== 0,
    special ? titles[(i / 50) % titles.length]! : `Product title number ${i} in a plain catalog`,
  ];
}

type SinkFactory = () => RowSink;

/** The candidates that are not the service's, behind the same RowSink; loaded from BENCH_XLSX_EXTRA. */
async function extraSink(name: string, dir: string): Promise<SinkFactory> {
  const require = createRequire(join(dir, 'package.json'));
  if (name === 'write-excel-file') {
    // Not a streaming writer: it takes the whole sheet at once, so the rows are held until finish().
    const module = (await import(pathToFileURL(require.resolve('write-excel-file/node')).href)) as {
      default: (data: unknown[][], options?: unknown) => { toStream(): Promise<NodeJS.ReadableStream> };
    };
    return () => {
      const out = new PassThrough();
      const rows: unknown[][] = [HEADER];
      return {
        bytes: out,
        async writeRows(page) {
          rows.push(...page.map((r) => [...r]));
        },
        async finish() {
          (await module.default(rows, { sheet: 'Inventory' }).toStream()).pipe(out);
        },
        async close() {
          out.end();
        },
        abort(reason) {
          out.destroy(reason);
        },
      };
    };
  }
  if (name === 'xlsx-write-stream') {
    const module = (await import(pathToFileURL(require.resolve('xlsx-write-stream')).href)) as { default: { default?: unknown } };
    const Transform = (module.default.default ?? module.default) as new () => NodeJS.ReadWriteStream;
    return () => {
      const stream = new Transform();
      stream.write(HEADER as unknown as string);
      const write = async (row: readonly Cell[]) => {
        if (!stream.write([...row] as unknown as string)) await new Promise((resolve) => stream.once('drain', resolve));
      };
      return {
        bytes: stream as unknown as AsyncIterable<Uint8Array>,
        async writeRows(page) {
          for (const row of page) await write(row);
        },
        async finish() {
          stream.end();
        },
        async close() {
          stream.end();
        },
        abort() {
          stream.end();
        },
      };
    };
  }
  throw new Error(`unknown writer ${name}`);
}

async function sinkFactory(name: string): Promise<SinkFactory> {
  if (name === 'zlib') {
    const { openXlsxSink } = await import('../src/domain/reports/exports/xlsx-sink.js');
    return () => openXlsxSink({ sheetName: 'Inventory', header: HEADER });
  }
  if (name === 'exceljs') {
    const { openExceljsXlsxSink } = await import('./xlsx-exceljs-sink.js');
    return () => openExceljsXlsxSink({ sheetName: 'Inventory', header: HEADER });
  }
  const extra = process.env.BENCH_XLSX_EXTRA;
  if (!extra) throw new Error(`${name} needs BENCH_XLSX_EXTRA (a directory where it is installed)`);
  return extraSink(name, extra);
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** Child process: writes the file and prints its measurements as JSON. */
async function write(name: string, rows: number, file: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  gc();
  const before = process.memoryUsage();
  const factory = await sinkFactory(name);
  gc();
  const loaded = process.memoryUsage();
  const sink = factory();
  const stored = pipeline(sink.bytes as AsyncIterable<Uint8Array>, createWriteStream(file));
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const started = performance.now();
  delay.enable();
  let heapPeak = 0;
  const pageSync: number[] = [];
  for (let first = 1; first <= rows; first += PAGE) {
    const page: Cell[][] = [];
    for (let i = first; i < Math.min(first + PAGE, rows + 1); i++) page.push(exportRow(i));
    // The part of writeRows that runs before its first wait: the page's cells to bytes, on the event loop.
    const called = performance.now();
    const written = sink.writeRows(page);
    pageSync.push(performance.now() - called);
    await written;
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await sink.finish();
  await stored;
  delay.disable();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    JSON.stringify({
      rssBeforeLoad: before.rss,
      loadRss: loaded.rss - before.rss,
      loadHeap: loaded.heapUsed - before.heapUsed,
      peakRss: process.resourceUsage().maxRSS * 1024,
      heapPeak,
      seconds,
      pageSyncMaxMs: Math.max(...pageSync),
      pageSyncP99Ms: pageSync.sort((a, b) => a - b)[Math.floor(pageSync.length * 0.99)],
      loopMaxMs: delay.max / 1e6,
      loopP99Ms: delay.percentile(99) / 1e6,
      bytes: (await stat(file)).size,
    }),
  );
}

/** Child process: reads the file back with exceljs and compares every cell; prints the mismatches as JSON. */
async function verify(file: string, rows: number): Promise<void> {
  const ExcelJS = (await import('exceljs')).default;
  const problems: string[] = [];
  let wrong = 0;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.getWorksheet('Inventory') ?? workbook.worksheets[0];
  if (!sheet) problems.push('no sheet');
  else {
    if (sheet.rowCount !== rows + 1) problems.push(`rowCount ${sheet.rowCount}, expected ${rows + 1}`);
    const expectedRow = (r: number): Cell[] => (r === 1 ? HEADER : exportRow(r - 1));
    for (let r = 1; r <= rows + 1; r++) {
      const row = sheet.getRow(r);
      expectedRow(r).forEach((expected, c) => {
        const cell = row.getCell(c + 1);
        const value = cell.value;
        const kind = typeof expected === 'number' ? ExcelJS.ValueType.Number : typeof expected === 'boolean' ? ExcelJS.ValueType.Boolean : expected === null ? ExcelJS.ValueType.Null : ExcelJS.ValueType.String;
        if (value === expected && cell.type === kind) return;
        wrong++;
        // The same value is wrong the same way on every row that holds it: one line per kind of mistake.
        const what = `${JSON.stringify(expected)} read as ${JSON.stringify(value)}${cell.type === kind ? '' : ` (cell type ${cell.type}, not ${kind})`}`;
        if (!problems.includes(what) && problems.length < 12) problems.push(what);
      });
    }
  }
  console.log(JSON.stringify({ problems, wrong }));
}

interface Measured {
  rssBeforeLoad: number;
  loadRss: number;
  loadHeap: number;
  peakRss: number;
  heapPeak: number;
  seconds: number;
  pageSyncMaxMs: number;
  pageSyncP99Ms: number;
  loopMaxMs: number;
  loopP99Ms: number;
  bytes: number;
}

function child(args: string[]): string {
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout.trim().split('\n').at(-1)!;
}

async function main(): Promise<void> {
  const [mode, name, rowsArg, file] = process.argv.slice(2);
  if (mode === '--write') return write(name!, Number(rowsArg), file!);
  if (mode === '--verify') return verify(file!, Number(rowsArg));

  const rows = Number(process.env.BENCH_XLSX_ROWS ?? 100_000);
  // exceljs's reader holds the whole workbook: past a few hundred thousand rows, check the zip only.
  const verifyCells = process.env.BENCH_XLSX_VERIFY !== '0';
  const writers = (process.env.BENCH_XLSX_WRITERS ?? (process.env.BENCH_XLSX_EXTRA ? 'zlib,exceljs,write-excel-file,xlsx-write-stream' : 'zlib,exceljs')).split(',');
  const dir = await mkdtemp(join(tmpdir(), 'xlsx-bench-'));
  const lines = [
    `${rows.toLocaleString('en-US')} rows × ${HEADER.length} columns, pages of ${PAGE}, Node ${process.version}`,
    '',
    '| writer | RSS after load | heap after load | peak RSS (before load) | peak heap | time | page on the loop max / p99 | loop delay max / p99 | file | zip test | cells read back |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  try {
    for (const name of writers) {
      const out = join(dir, `${name}.xlsx`);
      const m = JSON.parse(child(['--write', name, String(rows), out])) as Measured;
      let zipTest = 'ok';
      try {
        execFileSync('unzip', ['-tq', out], { stdio: 'pipe' });
      } catch (error) {
        zipTest = `fails: ${String((error as { stdout?: Buffer }).stdout ?? error).trim().split('\n')[0]}`;
      }
      let readBack = 'not checked';
      if (verifyCells) {
        const { problems, wrong } = JSON.parse(child(['--verify', name, String(rows), out])) as { problems: string[]; wrong: number };
        readBack = wrong === 0 ? 'all match' : `${wrong} cells wrong: ${problems.join('; ')}`.replaceAll('|', '\\|');
      }
      lines.push(
        `| ${name} | ${mb(m.loadRss)} MB | ${mb(m.loadHeap)} MB | ${mb(m.peakRss)} MB (${mb(m.rssBeforeLoad)}) | ${mb(m.heapPeak)} MB | ${m.seconds.toFixed(2)} s | ${m.pageSyncMaxMs.toFixed(1)} / ${m.pageSyncP99Ms.toFixed(1)} ms | ${m.loopMaxMs.toFixed(0)} / ${m.loopP99Ms.toFixed(0)} ms | ${(m.bytes / 1024 / 1024).toFixed(1)} MB | ${zipTest} | ${readBack} |`,
      );
      console.error(lines.at(-1));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  console.log(lines.join('\n'));
}

await main();
