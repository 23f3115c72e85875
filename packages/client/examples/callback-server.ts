// Receiving callbacks (README.md "Verifying callbacks", which shows the region below word for word):
// verify the signature over the raw bytes before parsing anything. test/client/examples.test.ts registers this
// server as an app's callback base URL and has the service call it.
// #region readme:callbacks
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { callbackRejection, verifyCallback } from '@mcs/partner-client';

async function rawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `secrets`: the current signing secret, and the previous one while a rotation is in its grace period. */
export function callbackServer(secrets: string[]): Server {
  return createServer(async (req, res) => {
    const body = await rawBody(req); // the bytes as received, before any JSON parsing
    const check = verifyCallback({
      secrets,
      headers: req.headers,
      method: req.method ?? '',
      pathWithQuery: req.url ?? '', // as received: the prefix of the registered base URL included
      rawBody: body,
    });
    if (!check.ok) {
      const { status, body: error } = callbackRejection(); // check.reason says why, for your log
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(error));
      return;
    }
    // Only now parse and handle; each callback may arrive twice.
    // A status check, GET {your base URL}/v2/storefront/status/{storefrontId}, answers the storefront's checks.
    if (req.method === 'GET' && req.url?.includes('/v2/storefront/status/')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ checks: [] }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
}
// #endregion
