import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { DbHandle } from '../connect.js';
import { nextTurn } from '../../lib/next-turn.js';
import { ensurePrivateDir } from '../../lib/private-files.js';
import { TurnBudget } from '../../lib/turn-budget.js';
import { FileTooLargeError, type FileMeta, type FileStore, type StoredFile, type WriteOptions } from './types.js';

export * from './types.js';

/** Bytes per database chunk: large enough that a 200 MiB upload is 400 rows, small enough to never matter in memory. */
export const CHUNK_BYTES = 512 * 1024;
/** Chunks one DELETE removes (4 MiB): a few milliseconds of SQLite's time each. */
const DELETE_BATCH_CHUNKS = 8;
/**
 * Bytes written between two looks at the SQLite WAL (DbHandle.relieveWal: a stat, and a checkpoint in the
 * checkpoint thread only when the WAL has grown past its relief size, the one rule every background writer
 * follows). 4 MiB is 8 chunks: the WAL never runs far past that size before the writer waits.
 */
const WAL_CHECK_BYTES = 4 * 1024 * 1024;
/**
 * A source whose bytes are already buffered is read in one stretch of promise callbacks, with the caller's
 * per-byte work (the upload's UTF-8 check and digest) inside it: the writer gives the event loop a turn
 * once a stretch has run this long.
 */
const TURN_BUDGET_MS = 5;

type FileRow = { id: number; account_id: number; name: string; content_type: string; byte_size: number; created_at: string; storage: string };

function toStoredFile(row: FileRow): StoredFile {
  return { id: row.id, accountId: row.account_id, name: row.name, contentType: row.content_type, byteSize: Number(row.byte_size), createdAt: row.created_at };
}

/** The file store of this configuration: the database, or `dir` (FILE_STORE_DIR) when set. */
export function createFileStore(handle: DbHandle, dir: string | null, now: () => Date = () => new Date()): FileStore {
  const db = handle.db;
  const filePath = (accountId: number, fileId: number) => path.join(dir ?? '', String(accountId), `${fileId}.bin`);

  async function readyRow(accountId: number, fileId: number): Promise<FileRow | null> {
    if (!Number.isSafeInteger(fileId)) return null;
    const row = await db
      .selectFrom('stored_files')
      .select(['id', 'account_id', 'name', 'content_type', 'byte_size', 'created_at', 'storage'])
      .where('account_id', '=', accountId)
      .where('id', '=', fileId)
      .where('state', '=', 'READY')
      .executeTakeFirst();
    return row ?? null;
  }

  async function removeBytes(row: { id: number; account_id: number; storage: string }) {
    if (row.storage === 'dir') {
      const target = filePath(row.account_id, row.id);
      await rm(target, { force: true });
      // An upload whose process died mid-write left only its partial file (the retention sweep's case).
      await rm(`${target}.partial`, { force: true });
      return;
    }
    // A few chunks per statement, the event loop free in between: on SQLite one DELETE of a 200 MiB file's
    // 400 chunks ran a quarter of a second on the loop.
    const last = await db
      .selectFrom('stored_file_chunks')
      .select((eb) => eb.fn.max('seq').as('last'))
      .where('file_id', '=', row.id)
      .executeTakeFirst();
    const top = last?.last ?? null;
    if (top === null) return;
    for (let from = 0; from <= Number(top); from += DELETE_BATCH_CHUNKS) {
      await db.deleteFrom('stored_file_chunks').where('file_id', '=', row.id).where('seq', '>=', from).where('seq', '<', from + DELETE_BATCH_CHUNKS).execute();
      await nextTurn();
    }
  }

  /**
   * Consumes the source into database chunks; returns [bytes, chunks]. The bytes are copied into one chunk
   * buffer, reused (the drivers copy a bound value before the INSERT resolves): a 200 MiB upload allocates
   * nothing per chunk for the garbage collector to catch up with. Every chunk is one INSERT, after which
   * the event loop gets a turn (on SQLite each INSERT runs on the loop); every WAL_CHECK_BYTES the writer
   * also relieves the WAL (DbHandle.relieveWal), waiting for a checkpoint when it has grown.
   */
  async function writeChunks(fileId: number, source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<[number, number]> {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let filled = 0;
    let total = 0;
    let seq = 0;
    let sinceCheck = 0;
    const budget = new TurnBudget(TURN_BUDGET_MS);
    const insert = async (data: Buffer) => {
      await db.insertInto('stored_file_chunks').values({ file_id: fileId, seq, data }).execute();
      seq++;
      sinceCheck += data.length;
      if (handle.relieveWal && sinceCheck >= WAL_CHECK_BYTES) {
        sinceCheck = 0;
        await handle.relieveWal();
      }
      await nextTurn();
    };
    for await (const piece of source) {
      total += piece.length;
      if (total > maxBytes) throw new FileTooLargeError(maxBytes);
      let inserted = false;
      for (let offset = 0; offset < piece.length; ) {
        const take = Math.min(CHUNK_BYTES - filled, piece.length - offset);
        chunk.set(piece.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
        if (filled === CHUNK_BYTES) {
          await insert(chunk);
          filled = 0;
          inserted = true;
        }
      }
      if (!inserted) await budget.pause();
    }
    if (filled > 0) await insert(chunk.subarray(0, filled));
    return [total, seq];
  }

  async function writeToDir(accountId: number, fileId: number, source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<number> {
    const target = filePath(accountId, fileId);
    ensurePrivateDir(dir!);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const temp = `${target}.partial`;
    const out = createWriteStream(temp, { mode: 0o600 });
    let total = 0;
    try {
      const budget = new TurnBudget(TURN_BUDGET_MS);
      for await (const piece of source) {
        total += piece.length;
        if (total > maxBytes) throw new FileTooLargeError(maxBytes);
        if (!out.write(piece)) await new Promise<void>((resolve) => out.once('drain', resolve));
        else await budget.pause();
      }
      out.end();
      await finished(out);
      await rename(temp, target);
      return total;
    } catch (error) {
      // A write still in flight fails once the stream is destroyed; that error is expected, not a crash.
      out.on('error', () => undefined);
      out.destroy();
      await rm(temp, { force: true });
      throw error;
    }
  }

  return {
    async write(accountId: number, meta: FileMeta, source: AsyncIterable<Uint8Array>, options: WriteOptions = {}): Promise<StoredFile> {
      const maxBytes = options.maxBytes ?? Number.MAX_SAFE_INTEGER;
      const storage = dir === null ? 'db' : 'dir';
      const created = await db
        .insertInto('stored_files')
        .values({ account_id: accountId, name: meta.name, content_type: meta.contentType, byte_size: 0, chunk_count: 0, state: 'WRITING', storage, created_at: now().toISOString() })
        .returning(['id', 'account_id', 'name', 'content_type', 'byte_size', 'created_at', 'storage'])
        .executeTakeFirstOrThrow();
      try {
        let bytes: number;
        let chunks = 0;
        if (storage === 'db') [bytes, chunks] = await writeChunks(created.id, source, maxBytes);
        else bytes = await writeToDir(accountId, created.id, source, maxBytes);
        await db.updateTable('stored_files').set({ state: 'READY', byte_size: bytes, chunk_count: chunks }).where('id', '=', created.id).execute();
        return toStoredFile({ ...created, byte_size: bytes });
      } catch (error) {
        // Nothing of a refused or broken file is kept; a failure of this cleanup leaves a WRITING row that
        // the retention sweep removes.
        await removeBytes(created).catch(() => undefined);
        await db.deleteFrom('stored_files').where('id', '=', created.id).execute().catch(() => undefined);
        throw error;
      }
    },

    async info(accountId: number, fileId: number): Promise<StoredFile | null> {
      const row = await readyRow(accountId, fileId);
      return row ? toStoredFile(row) : null;
    },

    async read(accountId: number, fileId: number): Promise<Readable | null> {
      const row = await readyRow(accountId, fileId);
      if (!row) return null;
      if (row.storage === 'dir') return createReadStream(filePath(row.account_id, row.id));
      async function* chunks() {
        // One chunk per query: a reader never holds more than a chunk, however large the file.
        for (let seq = 0; ; seq++) {
          const chunk = await db.selectFrom('stored_file_chunks').select('data').where('file_id', '=', row!.id).where('seq', '=', seq).executeTakeFirst();
          if (!chunk) return;
          yield Buffer.from(chunk.data);
        }
      }
      return Readable.from(chunks(), { objectMode: false });
    },

    async delete(accountId: number, fileId: number): Promise<void> {
      const row = await db.selectFrom('stored_files').select(['id', 'account_id', 'storage']).where('account_id', '=', accountId).where('id', '=', fileId).executeTakeFirst();
      if (!row) return;
      await removeBytes(row);
      await db.deleteFrom('stored_files').where('id', '=', row.id).execute();
    },
  };
}
