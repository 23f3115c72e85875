/**
 * Reports benchmark: bulk imports and an export through the HTTP API, against the service running in its
 * own process (`dist/src/main.js serve` as `npm start` runs it, built first when stale, with its inline
 * worker; BENCH_TSX=1 runs src/main.ts under tsx instead), so the peak memory measured is the service's
 * alone. Scenarios, in this order, on one database (a fresh service process per scenario, so each peak
 * RSS — VmHWM of /proc/<pid>/status — is that scenario's):
 *
 * - product-import: a 100,000-line TemplatelessProduct file (sku,title,brand,price,color), upload + import
 *   to COMPLETE;
 * - inventory-import: a 100,000-line Inventory file (sku,warehouse,quantity; createNewProducts, so it also
 *   works when the product import is not there), upload + import to COMPLETE;
 * - product-export: an export of the products to COMPLETE, then the download of its file.
 *
 *   npm run bench:reports
 *   BENCH_LINES=20000 BENCH_SCENARIOS=inventory-import BENCH_OUTPUT=- npm run bench:reports
 *   BENCH_NODE_OPTIONS=--max-old-space-size=256 npm run bench:reports   (V8 flags for the service)
 *
 *   BENCH_DB=postgres bash scripts/ci-postgres.sh npm run bench:reports   (DATABASE_URL: a fresh schema)
 *
 * Writes the "## Reports" section of bench/RESULTS.md ("## Reports (PostgreSQL)" with BENCH_DB=postgres;
 * BENCH_OUTPUT=- prints only). A scenario whose
 * report ends CANCELED (or whose route answers an error) is recorded with that outcome, not dropped.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { openAsBlob, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { envInt, machineLines, procStatusKb } from './common.js';
import { withBenchDatabase } from './database.js';
import { expectOk, runMain, selectedScenarios, writeSection } from './harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const SCENARIOS = ['product-import', 'inventory-import', 'product-export'] as const;
type ScenarioName = (typeof SCENARIOS)[number];

interface Service {
  child: ChildProcess;
  base: string;
  exited: Promise<void>;
}

function startService(database: Record<string, string>): Promise<Service> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: '0',
    HOST: '127.0.0.1',
    // DATA_DIR, and DATABASE_URL on PostgreSQL (bench/database.ts).
    ...database,
    ADMIN_TOKEN,
    SERVER_SECRET: 'bench-server-secret-0123456789abcdef0123456789',
    RATE_LIMIT_RPS: '0',
    LOG_LEVEL: 'warn',
    WORKER: 'inline',
    ...(process.env.BENCH_FILE_STORE_DIR ? { FILE_STORE_DIR: process.env.BENCH_FILE_STORE_DIR } : {}),
    // V8 flags for the service (e.g. --max-old-space-size=256 to see the peak RSS under a tighter heap).
    ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
  };
  // As `npm start` runs it (compiled), unless BENCH_TSX=1 asks for the tsx source run the tests use.
  const args = process.env.BENCH_TSX === '1' ? ['--import', 'tsx', 'src/main.ts', 'serve'] : ['dist/src/main.js', 'serve'];
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in time:\n${output}`)), 120_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, base: match[1]!.replace(/\/+$/, ''), exited });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stderr.write(chunk);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`service exited before listening:\n${output}`));
    });
  });
}

async function stopService(service: Service): Promise<void> {
  service.child.kill('SIGTERM');
  await service.exited;
}

/** CPU seconds (user + system) the process has used, from /proc/<pid>/stat. */
function procCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime), counted from the state field (3): indexes 11 and 12 here.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface ReportState {
  reportId: number;
  status: string;
  totalLines: number;
  linesSuccessfullyProcessed: number;
  linesWithErrors?: number;
  errorMessage: string | null;
  filePath: string | null;
}

async function waitForReport(base: string, token: string, reportId: number, timeoutMs: number): Promise<ReportState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${base}/v1/report/${reportId}`, { headers: { authorization: `Bearer ${token}` } });
    const report = (await expectOk(res, `GET /v1/report/${reportId}`)) as ReportState;
    if (report.status === 'COMPLETE' || report.status === 'CANCELED') return report;
    // A job that fails is retried with backoff for minutes: give up at its first failure and say why.
    const jobs = await fetch(`${base}/admin/jobs?type=report.run&pageSize=20`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const list = (await expectOk(jobs, 'GET /admin/jobs')) as { results: { payload: { reportId?: number }; status: string; lastError: string | null }[] };
    const job = list.results.find((j) => j.payload.reportId === reportId);
    if (job?.lastError && job.status !== 'RUNNING') throw new Error(`the report job failed (${job.status}): ${job.lastError.split('\n')[0]}`);
    if (Date.now() > deadline) throw new Error(`report ${reportId} still ${report.status} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Outcome {
  scenario: ScenarioName;
  title: string;
  lines: number;
  uploadMs: number | null;
  totalMs: number;
  status: string;
  detail: string;
  peakRssMb: number;
  idleRssMb: number;
  cpuSeconds: number;
}

async function main(): Promise<void> {
  const lines = envInt('BENCH_LINES', 100_000, 1);
  const timeoutMs = envInt('BENCH_TIMEOUT_S', 900, 10) * 1000;
  const selected = selectedScenarios(SCENARIOS);
  const loadBefore = os.loadavg()[0]!;
  if (process.env.BENCH_TSX !== '1') execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: root, stdio: 'inherit' });
  const work = mkdtempSync(path.join(os.tmpdir(), 'bench-reports-'));
  const outcomes: Outcome[] = [];
  let databaseLabel = '';
  try {
    await withBenchDatabase('reports', async (database) => {
      databaseLabel = database.label;
      // Files first, outside any measurement.
      const productFile = path.join(work, 'products.csv');
      const inventoryFile = path.join(work, 'inventory.csv');
      const sku = (i: number) => `BENCH-${String(i).padStart(6, '0')}`;
      const colors = ['red', 'green', 'blue', 'black', 'white'];
      const product = ['sku,title,brand,price,color'];
      const inventory = ['sku,warehouse,quantity'];
      for (let i = 0; i < lines; i++) {
        product.push(`${sku(i)},"Bench product ${i}, size ${i % 13}",Brand ${i % 97},${(5 + (i % 1000) / 10).toFixed(2)},${colors[i % colors.length]}`);
        inventory.push(`${sku(i)},Main,${i % 500}`);
      }
      writeFileSync(productFile, `${product.join('\r\n')}\r\n`);
      writeFileSync(inventoryFile, `${inventory.join('\r\n')}\r\n`);

      // The account, its warehouse and a seller token, through the operator API.
      let service = await startService(database.env);
      const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
      const account = (await expectOk(
        await fetch(`${service.base}/admin/accounts`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Bench reports' }) }),
        'POST /admin/accounts',
      )) as { accountId: number };
      await expectOk(
        await fetch(`${service.base}/admin/accounts/${account.accountId}/warehouses`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Main' }) }),
        'POST warehouses',
      );
      const { access_token: token } = (await expectOk(
        await fetch(`${service.base}/admin/accounts/${account.accountId}/tokens`, { method: 'POST', headers: admin, body: JSON.stringify({ scopes: ['legacy', 'report'] }) }),
        'POST tokens',
      )) as { access_token: string };
      await stopService(service);

      const upload = async (file: string, fields: Record<string, string>) => {
        const form = new FormData();
        for (const [k, v] of Object.entries(fields)) form.set(k, v);
        form.set('file', await openAsBlob(file, { type: 'text/csv' }), path.basename(file));
        return fetch(`${service.base}/v1/report`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      };

      for (const scenario of selected) {
        service = await startService(database.env);
        const pid = service.child.pid!;
        const idleRssMb = procStatusKb(pid, 'VmRSS') / 1024;
        process.stdout.write(`${scenario}: service pid ${pid}, ${idleRssMb.toFixed(0)} MB resident at rest\n`);
        const cpuBefore = procCpuSeconds(pid);
        const started = performance.now();
        let uploadMs: number | null = null;
        let status = 'ERROR';
        let detail = '';
        let title = '';
        let counted = lines;
        try {
          if (scenario === 'product-import' || scenario === 'inventory-import') {
            const isProducts = scenario === 'product-import';
            title = isProducts ? `TemplatelessProduct import, ${lines.toLocaleString('en-US')} lines (sku,title,brand,price,color)` : `Inventory import, ${lines.toLocaleString('en-US')} lines (sku,warehouse,quantity)`;
            const res = await upload(isProducts ? productFile : inventoryFile, isProducts ? { importType: 'TemplatelessProduct', createNewProducts: 'true' } : { importType: 'Inventory', createNewProducts: 'true' });
            uploadMs = performance.now() - started;
            const created = (await expectOk(res, 'POST /v1/report (upload)')) as ReportState;
            const report = await waitForReport(service.base, token, created.reportId, timeoutMs);
            status = report.status;
            detail = report.status === 'COMPLETE' ? `${report.linesSuccessfullyProcessed} applied, ${report.linesWithErrors ?? 0} with errors` : (report.errorMessage ?? '');
            if (report.status === 'COMPLETE' && report.totalLines !== lines) detail += ` (totalLines ${report.totalLines}!)`;
          } else {
            title = 'Products export to COMPLETE + download';
            const res = await fetch(`${service.base}/v1/report`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ isExport: true, exportType: 'Products' }),
            });
            const created = (await expectOk(res, 'POST /v1/report (export)')) as ReportState;
            const report = await waitForReport(service.base, token, created.reportId, timeoutMs);
            status = report.status;
            if (report.status === 'COMPLETE' && report.filePath) {
              const file = await fetch(report.filePath, { headers: { authorization: `Bearer ${token}` } });
              if (file.status !== 200) throw new Error(`GET ${report.filePath} answered ${file.status}`);
              let bytes = 0;
              let newlines = 0;
              for await (const part of file.body as unknown as AsyncIterable<Uint8Array>) {
                bytes += part.length;
                for (let i = part.indexOf(10); i !== -1; i = part.indexOf(10, i + 1)) newlines++;
              }
              counted = report.totalLines;
              detail = `${report.totalLines} rows, ${(bytes / 2 ** 20).toFixed(1)} MiB, ${newlines} file lines`;
            } else {
              detail = report.errorMessage ?? '';
            }
          }
        } catch (error) {
          detail = error instanceof Error ? error.message : String(error);
        }
        const totalMs = performance.now() - started;
        const peakRssMb = procStatusKb(pid, 'VmHWM') / 1024;
        const cpuSeconds = procCpuSeconds(pid) - cpuBefore;
        await stopService(service);
        outcomes.push({ scenario, title, lines: counted, uploadMs, totalMs, status, detail: detail.replace(/\|/g, '/').slice(0, 160), peakRssMb, idleRssMb, cpuSeconds });
        process.stdout.write(
          `${scenario}: ${status} in ${(totalMs / 1000).toFixed(1)} s (service CPU ${cpuSeconds.toFixed(1)} s), ${Math.round(counted / (totalMs / 1000))} lines/s, ` +
            `peak RSS ${peakRssMb.toFixed(0)} MB — ${detail}\n`,
        );
      }
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const section = [
    '## Reports',
    '',
    '`npm run bench:reports` (bench/reports.ts): imports and an export through the HTTP API, the service in its own process',
    '(`serve`, the database named below with a temporary DATA_DIR, files in the database, inline worker), a fresh service',
    'process per scenario on the same database so each peak RSS is that scenario\'s.',
    '',
    ...machineLines('service in its own process, driven over loopback (fetch); timings from the upload to COMPLETE', loadBefore, {
      database: databaseLabel,
      rss: 'peak RSS of each scenario\'s service process in the table (VmHWM of /proc/<pid>/status)',
    }),
    '- lines/s = data lines / (upload + processing until the report reads COMPLETE, polled every 200 ms)',
    '- service CPU = user + system CPU seconds of the service process during the scenario (/proc/<pid>/stat); on a',
    '  loaded machine wall time grows while CPU time does not, so lines per CPU second is the steadier figure',
    '- peak RSS = VmHWM of the service process (includes its idle footprint, shown in brackets)',
    `- service: ${process.env.BENCH_TSX === '1' ? 'src/main.ts under tsx' : 'dist/src/main.js (compiled, as `npm start` runs it)'}` +
      (process.env.BENCH_NODE_OPTIONS ? `, NODE_OPTIONS=${process.env.BENCH_NODE_OPTIONS}` : ', default V8 heap settings'),
    '',
    '| Scenario | status | upload | to COMPLETE | lines/s | service CPU | lines per CPU s | peak RSS (idle) | outcome |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
    ...outcomes.map(
      (o) =>
        `| ${o.title} | ${o.status} | ${o.uploadMs === null ? '–' : `${(o.uploadMs / 1000).toFixed(1)} s`} | ${(o.totalMs / 1000).toFixed(1)} s | ` +
        `${o.status === 'COMPLETE' ? Math.round(o.lines / (o.totalMs / 1000)).toLocaleString('en-US') : '–'} | ${o.cpuSeconds.toFixed(1)} s | ` +
        `${o.status === 'COMPLETE' && o.cpuSeconds > 0 ? Math.round(o.lines / o.cpuSeconds).toLocaleString('en-US') : '–'} | ${o.peakRssMb.toFixed(0)} MB (${o.idleRssMb.toFixed(0)}) | ${o.detail} |`,
    ),
    '',
  ].join('\n');
  writeSection(section, path.join(here, 'RESULTS.md'), 'Reports', 'Reports notes');
}

runMain(main);
