import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { DbHandle } from '../../src/db/connect.js';
import { createAccount } from '../../src/domain/accounts/accounts.js';
import { CHUNK_BYTES, createFileStore, FileTooLargeError, type FileStore } from '../../src/db/file-store/index.js';
import { createTestDatabase } from '../helpers/app.js';

/** The bytes as a stream of pieces of `piece` bytes, as an upload arrives. */
function source(bytes: Buffer, piece = 64 * 1024): AsyncIterable<Uint8Array> {
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += piece) pieces.push(bytes.subarray(i, i + piece));
  return Readable.from(pieces);
}

async function readAll(store: FileStore, accountId: number, fileId: number): Promise<Buffer | null> {
  const stream = await store.read(accountId, fileId);
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

const META = { name: 'stock.csv', contentType: 'text/csv' };

describe('file store', () => {
  let handle: DbHandle;
  let drop: () => Promise<void>;
  let accountId: number;
  let otherAccountId: number;
  before(async () => {
    ({ handle, drop } = await createTestDatabase());
    accountId = (await createAccount(handle.db, { name: 'Files' }, new Date())).accountId;
    otherAccountId = (await createAccount(handle.db, { name: 'Other' }, new Date())).accountId;
  });
  after(async () => {
    await handle.close();
    await drop();
  });

  const rows = async () => handle.db.selectFrom('stored_files').selectAll().orderBy('id').execute();
  const chunks = async (fileId: number) => handle.db.selectFrom('stored_file_chunks').select(['seq']).where('file_id', '=', fileId).orderBy('seq').execute();

  describe('in the database (default)', () => {
    let store: FileStore;
    before(() => {
      store = createFileStore(handle, null, () => new Date('2026-03-01T00:00:00.000Z'));
    });

    it('a 3 MiB file spans chunks and reads back identical', async () => {
      const bytes = randomBytes(3 * 1024 * 1024 + 123);
      const stored = await store.write(accountId, META, source(bytes, 100_000));
      assert.equal(stored.byteSize, bytes.length);
      assert.equal(stored.name, 'stock.csv');
      assert.equal(stored.createdAt, '2026-03-01T00:00:00.000Z');
      const expectedChunks = Math.ceil(bytes.length / CHUNK_BYTES);
      assert.equal(expectedChunks, 7);
      assert.deepEqual((await chunks(stored.id)).map((c) => c.seq), [0, 1, 2, 3, 4, 5, 6]);
      const row = (await rows()).find((r) => r.id === stored.id)!;
      assert.equal(row.state, 'READY');
      assert.equal(row.storage, 'db');
      assert.equal(Number(row.chunk_count), expectedChunks);
      assert.deepEqual(await readAll(store, accountId, stored.id), bytes);
      assert.deepEqual(await store.info(accountId, stored.id), stored);
      // Another account never sees it.
      assert.equal(await store.info(otherAccountId, stored.id), null);
      assert.equal(await store.read(otherAccountId, stored.id), null);
      await store.delete(otherAccountId, stored.id);
      assert.ok(await store.info(accountId, stored.id));

      await store.delete(accountId, stored.id);
      assert.equal(await store.info(accountId, stored.id), null);
      assert.equal(await store.read(accountId, stored.id), null);
      assert.deepEqual(await chunks(stored.id), []);
    });

    it('a file of more chunks than one DELETE takes is deleted whole, also when its first chunks are gone already', async () => {
      const bytes = randomBytes(20 * CHUNK_BYTES + 1);
      const stored = await store.write(accountId, META, source(bytes));
      assert.equal((await chunks(stored.id)).length, 21);
      await store.delete(accountId, stored.id);
      assert.deepEqual(await chunks(stored.id), []);
      // A delete that died half-way left the later chunks only.
      const again = await store.write(accountId, META, source(bytes));
      await handle.db.deleteFrom('stored_file_chunks').where('file_id', '=', again.id).where('seq', '<', 12).execute();
      await store.delete(accountId, again.id);
      assert.deepEqual(await chunks(again.id), []);
      assert.equal((await rows()).some((r) => r.id === again.id), false);
    });

    it('gives the event loop turns while it stores bytes that are all ready, and relieves the WAL on long bursts', async () => {
      let reliefs = 0;
      const counted = createFileStore({ ...handle, relieveWal: async () => void reliefs++ }, null);
      let turns = 0;
      let ticking = true;
      const tick = () => {
        turns++;
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      const bytes = randomBytes(40 * CHUNK_BYTES);
      // Every piece is ready at once: without turns given, the write would be one stretch of promise callbacks.
      async function* ready() {
        for (let i = 0; i < bytes.length; i += 64 * 1024) yield bytes.subarray(i, i + 64 * 1024);
      }
      const stored = await counted.write(accountId, META, ready());
      ticking = false;
      assert.ok(turns >= 30, `the loop turned ${turns} times while 40 chunks were stored`);
      // 20 MiB: a look at the WAL after every 4 MiB (DbHandle.relieveWal checkpoints when it has grown).
      assert.equal(reliefs, 5);
      assert.deepEqual(await readAll(store, accountId, stored.id), bytes);
      await store.delete(accountId, stored.id);
    });

    it('an empty file is stored and read back empty', async () => {
      const stored = await store.write(accountId, META, source(Buffer.alloc(0)));
      assert.equal(stored.byteSize, 0);
      assert.deepEqual(await readAll(store, accountId, stored.id), Buffer.alloc(0));
      await store.delete(accountId, stored.id);
    });

    it('a write past maxBytes throws FileTooLargeError and keeps nothing', async () => {
      const before = await rows();
      await assert.rejects(store.write(accountId, META, source(randomBytes(2 * CHUNK_BYTES + 10)), { maxBytes: CHUNK_BYTES + 5 }), (error) => {
        assert.ok(error instanceof FileTooLargeError);
        assert.equal(error.limitBytes, CHUNK_BYTES + 5);
        return true;
      });
      assert.deepEqual(await rows(), before);
      assert.deepEqual(await handle.db.selectFrom('stored_file_chunks').select('file_id').execute(), []);
      // Exactly the limit is accepted.
      const exact = await store.write(accountId, META, source(randomBytes(1000)), { maxBytes: 1000 });
      assert.equal(exact.byteSize, 1000);
      await store.delete(accountId, exact.id);
    });

    it('a source that fails mid-way keeps nothing; a file still WRITING is never served', async () => {
      const before = await rows();
      async function* broken() {
        yield randomBytes(CHUNK_BYTES + 1);
        throw new Error('connection reset');
      }
      await assert.rejects(store.write(accountId, META, broken()), /connection reset/);
      assert.deepEqual(await rows(), before);
      const writing = await handle.db
        .insertInto('stored_files')
        .values({ account_id: accountId, name: 'w.csv', content_type: 'text/csv', byte_size: 0, chunk_count: 0, state: 'WRITING', storage: 'db', created_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      assert.equal(await store.info(accountId, writing.id), null);
      assert.equal(await store.read(accountId, writing.id), null);
      await store.delete(accountId, writing.id);
      assert.deepEqual(await rows(), before);
    });
  });

  it('on SQLite on disk, the WAL can be checkpointed on demand, off the event loop', async (t) => {
    if (!handle.walCheckpoint) return t.skip('PostgreSQL or SQLite in memory: no WAL checkpointer');
    const written = await handle.db
      .insertInto('stored_files')
      .values({ account_id: accountId, name: 'w.csv', content_type: 'text/csv', byte_size: 0, chunk_count: 0, state: 'WRITING', storage: 'db', created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.equal(await handle.walCheckpoint(), true);
    await handle.db.deleteFrom('stored_files').where('id', '=', written.id).execute();
  });

  describe('in FILE_STORE_DIR', () => {
    let dir: string;
    let store: FileStore;
    before(() => {
      dir = path.join(mkdtempSync(path.join(tmpdir(), 'file-store-')), 'files');
      store = createFileStore(handle, dir);
    });
    after(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

    const mode = (p: string) => statSync(p).mode & 0o777;

    it('writes, reads, and deletes; files are 0600 in 0700 directories, no bytes in the database', async () => {
      const bytes = randomBytes(CHUNK_BYTES * 2 + 7);
      const stored = await store.write(accountId, META, source(bytes));
      assert.equal(stored.byteSize, bytes.length);
      const accountDir = path.join(dir, String(accountId));
      const file = path.join(accountDir, `${stored.id}.bin`);
      assert.equal(mode(dir), 0o700);
      assert.equal(mode(accountDir), 0o700);
      assert.equal(mode(file), 0o600);
      assert.deepEqual(readdirSync(accountDir), [`${stored.id}.bin`], 'no partial file left');
      const row = (await rows()).find((r) => r.id === stored.id)!;
      assert.equal(row.storage, 'dir');
      assert.equal(row.state, 'READY');
      assert.deepEqual(await chunks(stored.id), []);
      assert.deepEqual(await readAll(store, accountId, stored.id), bytes);
      assert.equal(await store.read(otherAccountId, stored.id), null);

      await store.delete(accountId, stored.id);
      assert.equal(existsSync(file), false);
      assert.equal(await store.info(accountId, stored.id), null);
      assert.equal((await rows()).some((r) => r.id === stored.id), false);
    });

    it('too large: FileTooLargeError, no row, no file, no partial file', async () => {
      const before = await rows();
      await assert.rejects(store.write(accountId, META, source(randomBytes(10_000), 1000), { maxBytes: 4096 }), FileTooLargeError);
      assert.deepEqual(await rows(), before);
      assert.deepEqual(readdirSync(path.join(dir, String(accountId))), []);
    });
  });
});
