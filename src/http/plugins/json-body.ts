import type { App } from '../types.js';
import { invalidArgument } from '../../domain/errors.js';

/**
 * The one application/json parser. Two rules meet here:
 * - JSON bodies must be valid UTF-8 (resolutions §7). Fastify reads a JSON body as a UTF-8 string, which
 *   silently turns invalid bytes into U+FFFD and would store them; this parser reads the bytes and refuses
 *   invalid UTF-8 with a 400.
 * - An empty body is no body (resolutions §7: bodyless POSTs accept an empty body whatever its
 *   Content-Type says; see empty-body.ts for the routes that need one), and a request to an unknown route is
 *   never parsed, so it answers 404 whatever it carries.
 * Non-empty text then goes to Fastify's own JSON parser (prototype-poisoning checks, malformed-JSON errors).
 */
export function registerJsonBodyParser(app: App) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (request.is404 || bytes.length === 0) {
      done(null, undefined);
      return;
    }
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      done(invalidArgument('the body is not valid UTF-8'), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
