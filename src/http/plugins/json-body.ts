import type { App } from '../types.js';
import { invalidArgument } from '../../domain/errors.js';

/**
 * JSON bodies must be valid UTF-8 (resolutions §7). Fastify reads a JSON body as a UTF-8 string, which
 * silently turns invalid bytes into U+FFFD and would store them; this parser reads the bytes, refuses
 * invalid UTF-8 with a 400, then hands the text to Fastify's own JSON parser (prototype-poisoning checks,
 * the empty-body and malformed-JSON errors unchanged).
 */
export function registerUtf8JsonParser(app: App) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = decoder.decode(body as Buffer);
    } catch {
      done(invalidArgument('the body is not valid UTF-8'), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
