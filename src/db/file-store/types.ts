import type { Readable } from 'node:stream';

/** A stored file as its owner sees it (the bytes are read with FileStore.read). */
export interface StoredFile {
  id: number;
  accountId: number;
  name: string;
  contentType: string;
  byteSize: number;
  createdAt: string;
}

export interface FileMeta {
  name: string;
  contentType: string;
}

export interface WriteOptions {
  /** Refuse the file (FileTooLargeError, nothing kept) once it passes this many bytes. */
  maxBytes?: number;
}

/** The source passed more bytes than WriteOptions.maxBytes allows; what was written is deleted. */
export class FileTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the file is larger than the limit of ${limitBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

/**
 * Where report files live (DESIGN.md): metadata always in stored_files; the bytes in the database by default
 * (chunks, so every API process and worker on one PostgreSQL database shares them) or in FILE_STORE_DIR.
 * Files are written from a stream and read as a stream, never held whole in memory. A file is visible
 * only once completely written.
 */
export interface FileStore {
  write(accountId: number, meta: FileMeta, source: AsyncIterable<Uint8Array>, options?: WriteOptions): Promise<StoredFile>;
  info(accountId: number, fileId: number): Promise<StoredFile | null>;
  /** The file's bytes; null when the account has no such (complete) file. */
  read(accountId: number, fileId: number): Promise<Readable | null>;
  delete(accountId: number, fileId: number): Promise<void>;
}
