// Receiving callbacks (README.md): verify the signature over the raw bytes before parsing anything.
import { createServer, type IncomingMessage } from 'node:http';
import { callbackRejection, verifyCallback } from '@mcs/partner-client';

async function rawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `secrets`: the current signing secret, and the previous one while a rotation is in its grace period. */
export function callbackServer(secrets: string[]) {
  return createServer(async (req, res) => {
    const body = await rawBody(req);
    const check = verifyCallback({
      secrets,
      headers: req.headers,
      method: req.method ?? '',
      pathWithQuery: req.url ?? '', // as received: the prefix of the registered base URL included
      rawBody: body,
    });
    if (!check.ok) {
      const { status, body: error } = callbackRejection();
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(error));
      return;
    }
    // Only now parse and handle; each callback may arrive twice.
    if (req.method === 'GET' && req.url?.startsWith('/v2/storefront/status/')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ checks: [] }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
}
