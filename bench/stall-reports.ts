/**
 * The report workloads of bench/stall.ts: imports (POST /v1/report multipart, polled to COMPLETE), the export
 * (to COMPLETE, then its download) and the upload over the size limit.
 */
import { createReadStream, openAsBlob, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ADMIN_TOKEN, bearer, call, Cutoff, failedText, json, MIB, poll, sleep, type Files, type Measure, type PhaseOutcome, type StallContext } from './stall-workloads.js';

interface ReportState {
  reportId: number;
  status: string;
  totalLines: number;
  linesSuccessfullyProcessed: number;
  linesWithErrors?: number;
  errorMessage: string | null;
  filePath: string | null;
}

/** Polls GET /v1/report/{id} every 200 ms until COMPLETE or CANCELED; a failed report job stops the wait. */
async function waitForReport(ctx: StallContext, reportId: number, deadline: number, failed: string[]): Promise<ReportState> {
  let last = 'not read yet';
  for (let polls = 0; ; polls++) {
    const res = await poll(deadline, `${ctx.base}/v1/report/${reportId}`, { headers: bearer(ctx.sellerToken) }, failed).catch((e: unknown) =>
      Promise.reject(e instanceof Cutoff ? new Cutoff(`the report was ${last}${failedText(failed)}`) : e),
    );
    const report = (await json(res, 'GET report')) as ReportState;
    last = `${report.status} (${report.linesSuccessfullyProcessed ?? 0} of ${report.totalLines ?? '?'} lines)`;
    if (report.status === 'COMPLETE' || report.status === 'CANCELED') return report;
    if (polls % 10 === 9) {
      // A job that fails is retried with backoff for minutes: stop at its first failure and say why.
      const jobs = (await json(await poll(deadline, `${ctx.base}/admin/jobs?type=report.run&pageSize=20`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }, failed), 'GET jobs')) as {
        results: { payload: { reportId?: number }; status: string; lastError: string | null }[];
      };
      const job = jobs.results.find((j) => j.payload.reportId === reportId);
      if (job?.lastError && job.status !== 'RUNNING') throw new Error(`the report job failed (${job.status}): ${job.lastError.split('\n')[0]}`);
    }
    await sleep(200);
  }
}

async function importFile(ctx: StallContext, file: string, fields: Record<string, string>, deadline: number, failed: string[] = []): Promise<ReportState> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', await openAsBlob(file, { type: 'text/csv' }), path.basename(file));
  const res = await call(deadline, `${ctx.base}/v1/report`, { method: 'POST', headers: { authorization: `Bearer ${ctx.sellerToken}` }, body: form });
  const created = (await json(res, 'POST /v1/report (import)')) as ReportState;
  return waitForReport(ctx, created.reportId, deadline, failed);
}

const importFields = {
  'product-import': { importType: 'TemplatelessProduct', createNewProducts: 'true' },
  'inventory-import': { importType: 'Inventory', createNewProducts: 'true' },
} as const;

/** The product import, unmeasured, where a workload needs the catalog and the product import did not run. */
export async function loadCatalog(ctx: StallContext, files: Files, timeoutMs: number): Promise<void> {
  if (ctx.catalogLoaded) return;
  process.stdout.write('setup: the product import (unmeasured), for the catalog\n');
  const report = await importFile(ctx, files.products, importFields['product-import'], performance.now() + timeoutMs);
  if (report.status !== 'COMPLETE') throw new Error(`the setup product import ended ${report.status}: ${report.errorMessage ?? ''}`);
  ctx.catalogLoaded = true;
}

/** An import through POST /v1/report (multipart) polled to COMPLETE; the time runs from the upload's start. */
export async function importWorkload(ctx: StallContext, kind: 'product-import' | 'inventory-import', files: Files, lines: number, measure: Measure): Promise<boolean> {
  const products = kind === 'product-import';
  const title = products ? 'product import (TemplatelessProduct, createNewProducts)' : 'inventory import (sku,warehouse,quantity)';
  const size = `${lines.toLocaleString('en-US')} lines`;
  const result = await measure({ key: kind, title, size, units: lines, unit: 'lines/s' }, async (deadline) => {
    const started = performance.now();
    const failed: string[] = [];
    const report = await importFile(ctx, products ? files.products : files.inventory, importFields[kind], deadline, failed);
    const seconds = (performance.now() - started) / 1000;
    if (report.status !== 'COMPLETE') throw new Error(`report ${report.status}: ${report.errorMessage ?? ''}`);
    const detail =
      `COMPLETE: ${report.linesSuccessfullyProcessed} applied, ${report.linesWithErrors ?? 0} with errors` +
      `${report.totalLines !== lines ? ` (totalLines ${report.totalLines})` : ''}${failedText(failed)}`;
    return { seconds, detail };
  });
  if (products && !result.failed && !result.cutoff) ctx.catalogLoaded = true;
  return result.cutoff;
}

/** A Products export to COMPLETE and the download of its file; products/s over both. */
export async function exportWorkload(ctx: StallContext, measure: Measure, expected: number): Promise<boolean> {
  const spec = { key: 'product-export', title: 'product export (to COMPLETE + download)', size: `${expected.toLocaleString('en-US')} products`, units: expected, unit: 'products/s' };
  const result = await measure(spec, async (deadline) => {
    const started = performance.now();
    const res = await call(deadline, `${ctx.base}/v1/report`, { method: 'POST', headers: bearer(ctx.sellerToken), body: JSON.stringify({ isExport: true, exportType: 'Products' }) });
    const created = (await json(res, 'POST /v1/report (export)')) as ReportState;
    const failed: string[] = [];
    const report = await waitForReport(ctx, created.reportId, deadline, failed);
    if (report.status !== 'COMPLETE' || !report.filePath) throw new Error(`report ${report.status}: ${report.errorMessage ?? ''}`);
    const completeSeconds = (performance.now() - started) / 1000;
    const file = await call(deadline, report.filePath, { headers: { authorization: `Bearer ${ctx.sellerToken}` } });
    if (file.status !== 200) throw new Error(`GET ${report.filePath} answered ${file.status}`);
    let bytes = 0;
    for await (const part of file.body as unknown as AsyncIterable<Uint8Array>) bytes += part.length;
    const seconds = (performance.now() - started) / 1000;
    return { units: report.totalLines, size: `${report.totalLines.toLocaleString('en-US')} products`, seconds, detail: `${report.totalLines} rows, ${(bytes / MIB).toFixed(1)} MiB; COMPLETE after ${completeSeconds.toFixed(1)} s, then the download${failedText(failed)}` };
  });
  return result.cutoff;
}

/**
 * A multipart POST /v1/report of `files.big` (just over the limit, with Content-Length, as fetch or curl send
 * it) over plain node:http, so the answer is seen as soon as it comes even while the body is still being sent.
 * The client stops sending when the answer arrives. MiB/s = the file's size / the time to the answer.
 */
export async function refusedUpload(ctx: StallContext, files: Files, measure: Measure): Promise<boolean> {
  const file = files.big!;
  const fileBytes = statSync(file).size;
  const size = `${(fileBytes / MIB).toFixed(0)} MiB file (limit 200 MiB)`;
  const spec = { key: 'upload-refused', title: 'upload over the limit (multipart POST /v1/report)', size, units: fileBytes / MIB, unit: 'MiB/s' };
  const result = await measure(spec, (deadline) => {
    const boundary = `----stall-bench-${Date.now()}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="importType"\r\n\r\nInventory\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="too-big.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const url = new URL(`${ctx.base}/v1/report`);
    const started = performance.now();
    return new Promise<PhaseOutcome>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const timer = setTimeout(() => {
        req.destroy();
        reject(new Cutoff('deadline passed'));
      }, Math.max(1, deadline - started));
      const req = http.request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { authorization: `Bearer ${ctx.sellerToken}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + fileBytes + tail.length },
      });
      const stream = createReadStream(file, { highWaterMark: 256 * 1024 });
      req.on('response', (res) => {
        answered = true;
        const ms = performance.now() - started;
        const atAnswer = sent;
        stream.destroy();
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk.length < 1000 ? chunk : ''));
        res.on('end', () => {
          clearTimeout(timer);
          req.destroy();
          resolve({
            seconds: ms / 1000,
            detail: `HTTP ${res.statusCode} after ${(ms / 1000).toFixed(2)} s, ${(atAnswer / MIB).toFixed(1)} MiB sent by then: ${body.replace(/\s+/g, ' ').slice(0, 120)}`,
          });
        });
      });
      req.on('error', (error) => {
        if (answered) return;
        clearTimeout(timer);
        const ms = performance.now() - started;
        resolve({ seconds: ms / 1000, detail: `no answer: ${error.message} after ${(sent / MIB).toFixed(1)} MiB, ${(ms / 1000).toFixed(2)} s` });
      });
      req.write(head);
      stream.on('data', (chunk) => {
        sent += chunk.length;
        if (!req.write(chunk)) {
          stream.pause();
          req.once('drain', () => stream.resume());
        }
      });
      stream.on('end', () => {
        if (!answered) req.end(tail);
      });
    });
  });
  return result.cutoff;
}
