import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { errorBody, errorStyleFor, MAX_URL_LENGTH } from './errors.js';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a head over 16 KiB, a method it does not
 * know, bytes that are not HTTP) still get the contract's error body, chosen by the path when the request
 * line can be read, with a request id of their own (logged, in X-Request-Id and in the v1 referenceId).
 */

type ParserError = Error & { code?: string; rawPacket?: Buffer | unknown };

/** The request line's method and target, when the bytes received start with one. */
function requestLine(raw: unknown): { line: string | null; target: string } {
  const head = Buffer.isBuffer(raw) ? raw.subarray(0, MAX_URL_LENGTH * 2).toString('latin1') : '';
  const end = head.indexOf('\r\n');
  const match = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ (\S+)/.exec(head);
  // An absolute-form target (GET http://host/v2/… HTTP/1.1) names its path after the authority.
  const target = (match?.[1] ?? '/').replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*/, '');
  return { line: end >= 0 ? head.slice(0, end) : null, target };
}

function appErrorFor(error: ParserError, line: string | null): AppError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      // The parser says only that the head is too big: the request line alone being too long is a 414.
      return line === null || line.length > MAX_URL_LENGTH
        ? new AppError('URI_TOO_LONG', `the URL is longer than the service accepts (${MAX_URL_LENGTH} characters)`)
        : new AppError('HEADERS_TOO_LARGE', 'the request headers are larger than the service accepts (16 KiB in all)');
    case 'HPE_INVALID_METHOD':
      return new AppError('UNIMPLEMENTED', 'the request method is not one the service knows');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('REQUEST_TIMEOUT', 'the request was not received in time');
    default:
      return new AppError('INVALID_ARGUMENT', 'the request is not valid HTTP/1.1');
  }
}

/** A page to answer with instead of the JSON error body (the console's targets). */
export interface ParserErrorPage {
  headers: Readonly<Record<string, string>>;
  contentType: string;
  body: string | Promise<string>;
}

export type ParserErrorPageFor = (target: string, appError: AppError, requestId: string) => ParserErrorPage | null;

/**
 * Fastify's clientErrorHandler: writes one whole HTTP response and closes the connection. `pageFor` may
 * claim the request's target for a page of its own (the console answers HTML with its security headers).
 */
export function clientErrorHandlerFor(log: FastifyBaseLogger, pageFor: ParserErrorPageFor = () => null): (error: ParserError, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { line, target } = requestLine(error.rawPacket);
    const appError = appErrorFor(error, line);
    const requestId = randomUUID();
    log.info({ reqId: requestId, err: error, status: appError.status }, 'request refused by the HTTP parser');
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const page = pageFor(target, appError, requestId);
    if (!page) {
      writeResponse(socket, appError.status, 'application/json; charset=utf-8', {}, requestId, JSON.stringify(errorBody(errorStyleFor(target), appError, requestId)));
      return;
    }
    void Promise.resolve(page.body).then(
      (body) => writeResponse(socket, appError.status, page.contentType, page.headers, requestId, body),
      () => socket.destroy(),
    );
  };
}

function writeResponse(socket: Socket, status: number, contentType: string, headers: Readonly<Record<string, string>>, requestId: string, body: string): void {
  if (socket.destroyed) return;
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      `Content-Type: ${contentType}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      extra +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
