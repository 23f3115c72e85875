import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { connectDatabase } from '../../src/db/connect.js';
import { WAL_RELIEF_BYTES } from '../../src/db/wal-checkpointer.js';

// SQLite only: the relief is a property of the embedded database's WAL.
describe('WAL relief for background writers (SQLite on disk)', () => {
  it('waits for a checkpoint once the WAL is past the relief size, and the WAL then starts over at most that size', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wal-relief-'));
    const file = path.join(dir, 'db.sqlite');
    const handle = connectDatabase({ databaseUrl: null, sqliteFile: file });
    try {
      assert.ok(handle.relieveWal, 'an on-disk SQLite database offers relieveWal');
      await sql`create table blobs (id integer primary key, data blob)`.execute(handle.db);
      const walSize = () => statSync(`${file}-wal`).size;
      // One transaction of 24 MiB: past the relief size, under the backstop (its pages are never checkpointed
      // on this connection's COMMIT).
      const piece = Buffer.alloc(256 * 1024, 7);
      await handle.db.transaction().execute(async (tx) => {
        for (let i = 0; i < 96; i++) await tx.insertInto('blobs' as never).values({ data: piece } as never).execute();
      });
      assert.ok(walSize() > WAL_RELIEF_BYTES, `the WAL holds the transaction (${walSize()} bytes)`);

      await handle.relieveWal();
      // The next write starts the WAL over (every frame was checkpointed) and cuts its file back.
      await handle.db.insertInto('blobs' as never).values({ data: Buffer.from('x') } as never).execute();
      assert.ok(walSize() <= WAL_RELIEF_BYTES, `the WAL started over (${walSize()} bytes)`);
      const rows = await sql<{ n: number }>`select count(*) as n from blobs`.execute(handle.db);
      assert.equal(rows.rows[0]!.n, 97, 'nothing was lost');
    } finally {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
