import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectDatabase } from '../../src/db/connect.js';
import { RECURRING_JOBS } from '../../src/jobs/schedules.js';
import { mainCommand } from '../helpers/main-command.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

const ROOT = REPO_ROOT;

function cliEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'NODE_ENV', 'ADMIN_TOKEN', 'SERVER_SECRET', 'WORKER']) delete env[name];
  return env;
}

// The CLI uses its embedded SQLite database here; the worker's PostgreSQL behaviour is covered by the
// other jobs tests, which run the same JobWorker against the test schema.
const skip = process.env.TEST_DATABASE_URL ? 'spawns the CLI on its embedded SQLite database; not a PostgreSQL test' : false;

describe('`cli worker` process', { skip }, () => {
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'mcs-worker-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs jobs until SIGTERM, then finishes and exits 0', async () => {
    const child = spawn(process.execPath, mainCommand(['worker']), { cwd: ROOT, env: cliEnv(dataDir) });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The hourly sweeps (RECURRING_JOBS: idempotency keys, finished jobs, reports past retention, …) are due as
    // soon as the first worker starts: wait until all of them have run.
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.split('"msg":"job succeeded"').length > RECURRING_JOBS.length) resolve();
      });
      void exited.then(() => reject(new Error(`worker exited early:\n${stdout}\n${stderr}`)));
    });
    assert.match(stdout, /worker \S+ running on sqlite/);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, stderr);
    assert.match(stdout, /SIGTERM: finishing the running job/);
    assert.match(stdout, /worker stopped\n/);

    const handle = connectDatabase({ databaseUrl: null, sqliteFile: path.join(dataDir, 'service.db') });
    try {
      const jobs = await handle.db.selectFrom('jobs').select(['type', 'status']).orderBy('id').execute();
      assert.deepEqual(
        jobs,
        RECURRING_JOBS.map((j) => ({ type: j.type, status: 'SUCCEEDED' })),
      );
      const schedules = await handle.db.selectFrom('job_schedules').select('name').orderBy('name').execute();
      assert.deepEqual(
        schedules.map((r) => r.name),
        RECURRING_JOBS.map((j) => j.name).sort(),
      );
    } finally {
      await handle.close();
    }
  });

  it('`serve` with WORKER=inline runs jobs in its own process and stops the worker on SIGTERM', async () => {
    const serveDir = mkdtempSync(path.join(tmpdir(), 'mcs-serve-'));
    try {
      const env = { ...cliEnv(serveDir), PORT: '0', HOST: '127.0.0.1', WORKER: 'inline' };
      const child = spawn(process.execPath, mainCommand(['serve']), { cwd: ROOT, env });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString();
          if (stdout.includes('"msg":"job succeeded"')) resolve();
        });
        void exited.then(() => reject(new Error(`server exited early:\n${stdout}\n${stderr}`)));
      });
      child.kill('SIGTERM');
      assert.equal(await exited, 0, stderr);
      assert.match(stdout, /"msg":"job worker stopped"/);
    } finally {
      rmSync(serveDir, { recursive: true, force: true });
    }
  });

  it('--once runs what is due and exits', async () => {
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, mainCommand(['worker', '--once']), { cwd: ROOT, env: cliEnv(dataDir) }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      );
    });
    assert.equal(run.code, 0, run.stderr);
    // The sweep ran in the previous test and is next due in an hour.
    assert.match(run.stdout, /ran 0 job\(s\)/);
  });
});
