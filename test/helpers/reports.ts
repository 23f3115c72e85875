import { randomBytes } from 'node:crypto';
import { JobWorker } from '../../src/jobs/worker.js';
import type { TestApp } from './app.js';
import { bearer } from './fixtures.js';

/** A multipart/form-data body: text fields, and optionally one file part. */
export function multipartBody(
  fields: Record<string, string | number | boolean>,
  file?: { name?: string; content: string | Buffer; field?: string; contentType?: string },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(value)}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name ?? 'import.csv'}"\r\n` +
          `Content-Type: ${file.contentType ?? 'text/csv'}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POST /v1/report as an import of `content` with the given form fields. */
export function postImport(t: TestApp, token: string, content: string | Buffer, fields: Record<string, string | number | boolean> = {}, extraHeaders: Record<string, string> = {}) {
  const { payload, headers } = multipartBody(fields, { content });
  return t.app.inject({ method: 'POST', url: '/v1/report', payload, headers: { ...headers, ...bearer(token), ...extraHeaders } });
}

/** POST /v1/report as an export. */
export function postExport(t: TestApp, token: string, body: Record<string, unknown> = {}) {
  return t.app.inject({ method: 'POST', url: '/v1/report', payload: body, headers: bearer(token) });
}

/** Runs every due job (reports, validations) until none is left. */
export async function runJobs(t: TestApp): Promise<number> {
  return new JobWorker(t.deps, { schedules: [] }).runUntilIdle();
}

export function getReport(t: TestApp, token: string, reportId: number) {
  return t.app.inject({ url: `/v1/report/${reportId}`, headers: bearer(token) });
}

/** Creates an import, runs the jobs and answers the report record. */
export async function importAndRun(t: TestApp, token: string, content: string | Buffer, fields: Record<string, string | number | boolean> = {}) {
  const created = await postImport(t, token, content, fields);
  if (created.statusCode !== 200) throw new Error(`import refused: ${created.statusCode} ${created.body}`);
  await runJobs(t);
  const res = await getReport(t, token, (created.json() as { reportId: number }).reportId);
  return res.json() as ReportJson;
}

/** Line errors of a report, parsed from its errors CSV (simple: tests keep messages comma-free or quoted). */
export async function lineErrors(t: TestApp, token: string, reportId: number): Promise<string> {
  const res = await t.app.inject({ url: `/v1/report/${reportId}/errors`, headers: bearer(token) });
  if (res.statusCode !== 200) throw new Error(`errors: ${res.statusCode} ${res.body}`);
  return res.body;
}

export interface ReportJson {
  reportId: number;
  status: string;
  isExport: boolean;
  totalLines: number;
  linesSuccessfullyProcessed: number;
  linesWithErrors: number;
  expectedLines: number | null;
  errorMessage: string | null;
  columnTypes: string[];
  filePath: string | null;
  errorFilePath: string | null;
  importType: string | null;
  exportType: string | null;
  [key: string]: unknown;
}
