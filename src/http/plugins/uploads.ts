import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError, invalidArgument, invalidField } from '../../domain/errors.js';
import { NotUtf8Error, Utf8Decoder } from '../../domain/reports/csv/utf8.js';
import { FileTooLargeError, type StoredFile } from '../../db/file-store/index.js';
import type { App } from '../types.js';
import { bodyLimitOf, tooLarge } from './body-limits.js';

/** Form fields of one upload (besides the file): few and short. */
const MAX_FIELDS = 40;
const MAX_FIELD_BYTES = 64 * 1024;

export interface Upload {
  /** Form fields as sent (strings). */
  fields: Record<string, string>;
  /** The file part, stored; null when the form had none. */
  file: (StoredFile & { sha256: string }) | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Digest of an uploaded file, so an Idempotency-Key replay must carry the same file. */
    uploadDigest: string | null;
  }
}

/**
 * multipart/form-data for report and validation uploads (resolutions §0: up to UPLOAD_BODY_LIMIT_MB). The
 * file part streams into the file store as it arrives (never held whole in memory); a file over the limit
 * is a 413 and nothing of it is kept. A body declared too large never gets here (body-limits.ts).
 */
export async function registerUploads(app: App, deps: Deps): Promise<void> {
  await app.register(multipart, {
    limits: { files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, fileSize: deps.config.uploadBodyLimitBytes + 1, parts: MAX_FIELDS + 1 },
  });
  app.decorateRequest('uploadDigest', null);
}

/**
 * A stored upload belongs to its request until the handler adopts it (the report or validation that now
 * owns the file); what is not adopted — the request failed, or replayed an Idempotency-Key — is deleted
 * after the response by the route's onResponse hook `deleteUnadoptedUpload`.
 */
const unadopted = new WeakMap<FastifyRequest, StoredFile>();

export function holdUpload(request: FastifyRequest, file: StoredFile): void {
  unadopted.set(request, file);
}

/** The request's stored upload, still held (not adopted). */
export function heldUpload(request: FastifyRequest): StoredFile | null {
  return unadopted.get(request) ?? null;
}

/** The request's stored upload, now owned by what the handler created with it. */
export function adoptUpload(request: FastifyRequest): StoredFile | null {
  const file = unadopted.get(request) ?? null;
  unadopted.delete(request);
  return file;
}

/** onResponse hook of the upload routes: deletes the request's upload when no handler adopted it. */
export function deleteUnadoptedUpload(deps: Pick<Deps, 'files'>) {
  return async (request: FastifyRequest): Promise<void> => {
    const file = adoptUpload(request);
    if (file) await deps.files.delete(file.accountId, file.id).catch((error: unknown) => request.log.warn({ err: error }, 'could not delete an unused upload'));
  };
}

/**
 * Refuses a body sent without Content-Length once more than `maxBytes` of it arrived: the request stops
 * being read and fails with the 413 (the multipart reader gives up on an 'error' of its request). The
 * file part is held to its own limit by the file store; this also bounds what surrounds it. Returns the
 * function that stops counting.
 */
function cutAtLimit(raw: IncomingMessage, maxBytes: number, error: () => AppError): () => void {
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= maxBytes) return;
    raw.off('data', count);
    raw.unpipe();
    raw.pause();
    raw.emit('error', error());
  };
  raw.on('data', count);
  return () => raw.off('data', count);
}

/**
 * Reads a multipart request: its fields, and the part named `fileField` stored for the account (held for
 * the request: holdUpload). The text is checked to be UTF-8 while it streams (a CSV in another encoding is
 * a 400 naming the line). A refused request keeps nothing.
 */
export async function readUpload(request: FastifyRequest, deps: Deps, accountId: number, fileField = 'file'): Promise<Upload> {
  const fields: Record<string, string> = {};
  let file: Upload['file'] = null;
  const limit = deps.config.uploadBodyLimitBytes;
  let stopCounting = () => {};
  try {
    const parts = request.parts()[Symbol.asyncIterator]();
    // The first step sets the multipart reader up (it pipes the request into it): bytes counted before
    // that would be bytes it never sees.
    const first = parts.next();
    if (request.headers['content-length'] === undefined) stopCounting = cutAtLimit(request.raw, bodyLimitOf(request, deps), () => tooLarge(limit));
    for (let step = await first; step.done !== true; step = await parts.next()) {
      const part = step.value;
      if (part.type === 'field') {
        if (part.fieldnameTruncated || part.valueTruncated) throw invalidField(part.fieldname, `is longer than ${MAX_FIELD_BYTES} bytes`);
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      if (part.fieldname !== fileField) {
        part.file.resume();
        throw invalidField(part.fieldname, `is not a file this route takes; send the file in a part named "${fileField}"`);
      }
      if (file) throw invalidField(fileField, 'send one file');
      const hash = createHash('sha256');
      const stored = await deps.files.write(
        accountId,
        { name: part.filename || 'upload.csv', contentType: part.mimetype || 'text/csv' },
        checkedUtf8(part.file, hash),
        { maxBytes: limit },
      );
      if (part.file.truncated) {
        await deps.files.delete(accountId, stored.id);
        throw tooLarge(limit);
      }
      file = { ...stored, sha256: hash.digest('hex') };
    }
  } catch (error) {
    if (file) await deps.files.delete(accountId, file.id).catch(() => undefined);
    if (error instanceof FileTooLargeError) throw tooLarge(limit);
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(limit);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw invalidArgument(`the form has too many parts: send one file and at most ${MAX_FIELDS} fields`);
    }
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_PROTO_VIOLATION' || (error instanceof Error && /multipart|boundary/i.test(error.message) && !(error instanceof AppError))) {
      throw invalidArgument(`the multipart/form-data body cannot be read: ${(error as Error).message}`);
    }
    throw error;
  } finally {
    stopCounting();
  }
  request.uploadDigest = file?.sha256 ?? null;
  if (file) holdUpload(request, file);
  return { fields, file };
}

/**
 * Passes the bytes through, refusing the first that is not UTF-8 (with the line it is on) as a 400 on
 * `field`; every byte also goes into `hash` (the upload's digest, for Idempotency-Key replays).
 */
export async function* checkedUtf8(source: AsyncIterable<Buffer>, hash: ReturnType<typeof createHash>, field = 'file'): AsyncGenerator<Buffer> {
  const utf8 = new Utf8Decoder();
  try {
    for await (const bytes of source) {
      hash.update(bytes);
      utf8.decode(bytes);
      yield bytes;
    }
    utf8.end();
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    throw invalidField(
      field,
      error.atEnd ? `is not UTF-8 text (it ends inside a character, line ${error.line})` : `is not UTF-8 text (line ${error.line}): save it as "CSV UTF-8" and upload it again`,
    );
  }
}
