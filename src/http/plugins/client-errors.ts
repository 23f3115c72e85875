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

/** Fastify's clientErrorHandler: writes one whole HTTP response and closes the connection. */
export function clientErrorHandlerFor(log: FastifyBaseLogger): (error: ParserError, socket: Socket) => void {
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
    const json = JSON.stringify(errorBody(errorStyleFor(target), appError, requestId));
    socket.end(
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status] ?? 'Error'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(json)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        json,
    );
  };
}
