import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { closeDeps, createDeps } from '../../src/create-deps.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;

/** DATA_DIR holds the database and the server secret: only the service's user may read them. */
describe('DATA_DIR, the SQLite files and the server secret are private to the service user', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'mcs-perm-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  async function startOn(dataDir: string) {
    const config = { ...loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir }), databaseUrl: null };
    const deps = createDeps(config, { rateLimiter: null });
    // A write makes SQLite create the -wal and -shm files.
    await sql`create table if not exists probe (id integer)`.execute(deps.db.db);
    await sql`insert into probe (id) values (1)`.execute(deps.db.db);
    return deps;
  }

  it('creates them 0700 / 0600', async () => {
    const dataDir = path.join(root, 'fresh', 'data');
    const deps = await startOn(dataDir);
    try {
      assert.equal(modeOf(dataDir).toString(8), '700');
      for (const name of ['service.db', 'service.db-wal', 'service.db-shm', 'server-secret']) {
        assert.equal(modeOf(path.join(dataDir, name)).toString(8), '600', name);
      }
    } finally {
      await closeDeps(deps);
    }
  });

  it('narrows ones an earlier start left world-readable', async () => {
    const dataDir = path.join(root, 'old');
    const first = await startOn(dataDir);
    await closeDeps(first);
    mkdirSync(dataDir, { recursive: true });
    chmodSync(dataDir, 0o755);
    for (const name of ['service.db', 'service.db-wal', 'service.db-shm', 'server-secret']) {
      const file = path.join(dataDir, name);
      try {
        chmodSync(file, 0o644);
      } catch {
        writeFileSync(file, '', { mode: 0o644 });
      }
    }
    const deps = await startOn(dataDir);
    try {
      assert.equal(modeOf(dataDir).toString(8), '700');
      for (const name of ['service.db', 'service.db-wal', 'service.db-shm', 'server-secret']) {
        assert.equal(modeOf(path.join(dataDir, name)).toString(8), '600', name);
      }
    } finally {
      await closeDeps(deps);
    }
  });
});
