import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.js';
import { FileTooLargeError, type StoredFile } from '../../../db/file-store/index.js';
import { tooLarge } from '../../plugins/body-limits.js';
import { checkedUtf8, holdUpload } from '../../plugins/uploads.js';
import type { App } from '../../types.js';

/** The raw body of a text/csv request, handed to the route unread. */
export class CsvBodyStream {
  constructor(readonly stream: Readable) {}
}

/**
 * text/csv bodies for the routes of this (encapsulated) context: the parser hands the request stream to
 * the route as it is, so a 200 MiB file is never buffered; the route streams it into the file store. A
 * Content-Length over UPLOAD_BODY_LIMIT_MB was refused (413) as the request arrived, before this parser
 * (src/http/plugins/uploads.ts); a body without one is cut off at the limit while it streams.
 */
export function registerCsvBodyParser(scope: App): void {
  scope.addContentTypeParser('text/csv', (_request, payload, done) => done(null, new CsvBodyStream(payload)));
}

/**
 * Stores a text/csv body for the account, checking that it is UTF-8 as it streams (a 400 naming the
 * line) and cutting it off over the limit (413); nothing of a refused body is kept. Records the body's
 * digest for Idempotency-Key replays, and holds the file for the request until the handler adopts it.
 */
export async function storeCsvBody(request: FastifyRequest, body: CsvBodyStream, deps: Deps, accountId: number): Promise<StoredFile> {
  const limit = deps.config.uploadBodyLimitBytes;
  const hash = createHash('sha256');
  try {
    const stored = await deps.files.write(
      accountId,
      { name: fileNameOf(request) ?? 'validation.csv', contentType: 'text/csv' },
      // Not destroyed when the store stops early (413, not UTF-8): Node discards the rest of the body after
      // the response, so the client reads the error instead of a reset connection.
      checkedUtf8(body.stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>, hash, 'body'),
      { maxBytes: limit },
    );
    request.uploadDigest = hash.digest('hex');
    holdUpload(request, stored);
    return stored;
  } catch (error) {
    if (error instanceof FileTooLargeError) throw tooLarge(limit);
    throw error;
  }
}

/** A file name given in Content-Disposition (`attachment; filename="stock.csv"`), if any. */
function fileNameOf(request: FastifyRequest): string | null {
  const disposition = request.headers['content-disposition'];
  const match = typeof disposition === 'string' ? /filename="?([^";]{1,255})"?/i.exec(disposition) : null;
  return match ? match[1]!.trim() : null;
}
