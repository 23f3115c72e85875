import type { Readable } from 'node:stream';
import { errorCodes, type FastifyRequest } from 'fastify';
import { invalidField } from '../../domain/errors.js';
import type { App } from '../types.js';

/**
 * Empty request bodies (resolutions §7: "POST routes without a body accept an empty body whatever its
 * Content-Type says"). Public examples and PHP Guzzle clients send `Content-Type: application/json` with
 * no body (Content-Length: 0, or no length at all) to accept, markPaid and the other bodyless POSTs;
 * Fastify would refuse that before routing (FST_ERR_CTP_EMPTY_JSON_BODY, or 415 for other types).
 *
 * So an empty body parses as "no body" (undefined) whatever the Content-Type (the JSON parser in
 * json-body.ts does the same for application/json), and the decision moves to the route: one without a
 * body schema ignores it, one with a body schema answers 400 "body: is required" (requireBody) rather
 * than a schema complaint about null. A request to an unknown route is
 * never parsed, so it answers 404 whatever it carries.
 */
export function registerEmptyBodies(app: App): void {
  // Any Content-Type no route parses (text/xml, application/octet-stream…): fine when empty, still
  // refused (415 naming the Content-Type problem) when something was sent.
  app.addContentTypeParser('*', (request, payload, done) => acceptOnlyEmpty(request, payload, done));

  // Appended to each body route's own preValidation hooks, so a route whose body is optional can first
  // supply its default (admin rotate-secrets turns no body into {}).
  app.addHook('onRoute', (route) => {
    if (route.schema?.body === undefined) return;
    const own = route.preValidation === undefined ? [] : Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation];
    route.preValidation = [...own, requireBody];
  });
}

async function requireBody(request: FastifyRequest): Promise<void> {
  if (request.body === undefined) {
    throw invalidField('body', 'is required: send the JSON object this route takes (Content-Type: application/json)');
  }
}

function acceptOnlyEmpty(request: FastifyRequest, payload: Readable, done: (err: Error | null, body?: unknown) => void): void {
  const unsupported = () => new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE();
  if (request.is404) {
    done(null, undefined);
    return;
  }
  const length = request.headers['content-length'];
  if (length !== undefined && length !== '0') {
    done(unsupported());
    return;
  }
  // Chunked (or unframed) body: stop at the first byte, so an unsupported upload is never read whole.
  let settled = false;
  const settle = (error: Error | null) => {
    if (settled) return;
    settled = true;
    payload.removeAllListeners('data');
    done(error, undefined);
  };
  payload.on('data', (chunk: Buffer | string) => {
    if (chunk.length > 0) settle(unsupported());
  });
  payload.on('end', () => settle(null));
  payload.on('error', (error: Error) => settle(error));
}
