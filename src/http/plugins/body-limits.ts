import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError } from '../../domain/errors.js';
import type { App } from '../types.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes a report or validation file (multipart/form-data or text/csv) up to UPLOAD_BODY_LIMIT_MB. */
    upload?: boolean;
  }
}

/**
 * What a multipart body may carry besides its file: boundaries, part headers and the form fields (a report
 * form's fields take a few hundred bytes). The file itself is held to UPLOAD_BODY_LIMIT_MB on its own; a
 * body declared larger than both is refused before it is read, so a file just over the limit is too.
 */
const MULTIPART_ALLOWANCE_BYTES = 64 * 1024;

/** How long, and how much of, the rest of a refused body is read and discarded before the connection ends. */
const LINGER_MS = 2000;
const LINGER_BYTES = 64 * 1024 * 1024;

/** Requests whose client waits for "100 Continue" before it sends the body. */
const awaitsContinue = new WeakSet<IncomingMessage>();

/**
 * The body limits of every route (resolutions §0: JSON_BODY_LIMIT_MB, and UPLOAD_BODY_LIMIT_MB for the
 * routes whose config says `upload`).
 *
 * A body declared larger than its route takes is refused from its Content-Length as the request arrives,
 * before a byte of it is read and before authentication. The 413 comes first because it costs nothing
 * (no token lookup, no rate-limit state for a client that may hold no token) and tells nothing that is
 * not public: the limits are in the API reference, and an unknown route is still a 404. A client that
 * asks for "100 Continue" is sent it only once the request passed its checks (authentication included),
 * so a refused upload is never sent at all. A body without Content-Length is cut at the limit by its
 * reader (the file store, the multipart reader: uploads.ts). What a client still sends of a refused body
 * is discarded for a short while, then the connection ends (discardRestThenClose).
 */
export function registerBodyLimits(app: App, deps: Deps): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const declared = request.headers['content-length'];
    // Node's parser has already refused a Content-Length that is not a number.
    if (declared === undefined || request.is404) {
      done();
      return;
    }
    const limit = bodyLimitOf(request, deps);
    if (Number(declared) > limit) done(bodyTooLarge(request, deps, limit));
    else done();
  });

  // Node answers "100 Continue" itself unless the server listens for checkContinue; then it is sent when
  // the body is about to be read (preParsing runs after every onRequest hook, authentication included).
  app.server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    awaitsContinue.add(req);
    app.server.emit('request', req, res);
  });
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (awaitsContinue.delete(request.raw)) reply.raw.writeContinue();
    done(null, payload);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    // Node ends a connection whose client sent "Connection: close" as soon as the answer is written, which
    // resets it while a refused body is still coming in: the answer keeps it open, discardRestThenClose ends
    // it. Not when the client still waits for "100 Continue": it may never send the body, and Node closes.
    const refusedBody = request.raw.complete === false && !awaitsContinue.has(request.raw);
    if (refusedBody && /\bclose\b/i.test(request.headers.connection ?? '') && !reply.hasHeader('Connection')) {
      reply.header('Connection', 'keep-alive');
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    if (request.raw.complete === false) discardRestThenClose(request.raw);
    done();
  });
}

/** The largest body the request's route reads, by its Content-Type (an upload's, or the JSON limit). */
export function bodyLimitOf(request: FastifyRequest, deps: Deps): number {
  const routeLimit = request.routeOptions.bodyLimit ?? deps.config.jsonBodyLimitBytes;
  if (request.routeOptions.config.upload !== true) return routeLimit;
  const type = (request.headers['content-type'] ?? '').trimStart().toLowerCase();
  if (type.startsWith('multipart/form-data')) return deps.config.uploadBodyLimitBytes + MULTIPART_ALLOWANCE_BYTES;
  if (type.startsWith('text/csv')) return deps.config.uploadBodyLimitBytes;
  return routeLimit;
}

/** The 413 of an upload over UPLOAD_BODY_LIMIT_MB (also used by routes that take a raw CSV body). */
export const tooLarge = (limit: number) => new AppError('PAYLOAD_TOO_LARGE', `the file is larger than the service accepts (${sizeText(limit)})`);

/** The 413 of a body over `limit`: an upload's names the file limit. */
function bodyTooLarge(request: FastifyRequest, deps: Deps, limit: number): AppError {
  if (limit >= deps.config.uploadBodyLimitBytes && request.routeOptions.config.upload === true) return tooLarge(deps.config.uploadBodyLimitBytes);
  return new AppError('PAYLOAD_TOO_LARGE', `the request body is larger than the service accepts (${sizeText(limit)})`);
}

/** A limit as people read it: whole MiB (the configured unit), KiB below one MiB. */
const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.floor(bytes / (1024 * 1024))} MiB` : `${Math.floor(bytes / 1024)} KiB`);

/**
 * The answer went out before the body was read to its end (a refusal: too large, not UTF-8, no token).
 * Closing the connection at once would reset it while the client is still sending, and a reset can make
 * the client lose the answer it has not read yet; reading the rest to its end could take as long as the
 * client likes (a body without Content-Length has no end). So the rest is read and discarded for a while,
 * and the connection ends when the body does (it then stays open for the next request) or at the cap.
 */
function discardRestThenClose(raw: IncomingMessage): void {
  const socket = raw.socket;
  let discarded = 0;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, LINGER_MS);
  timer.unref();
  raw.unpipe();
  raw.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) close();
  });
  raw.once('end', () => clearTimeout(timer));
  socket.once('close', () => clearTimeout(timer));
  raw.resume();
}
