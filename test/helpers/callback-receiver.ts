import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyCallback } from '@mcs/partner-client';

/** One callback as the local partner received it, with the outcome of 5.5's verification. */
export interface Received {
  method: string;
  url: string;
  deliveryId: string;
  signature: string;
  body: Buffer;
  json: unknown;
  verified: boolean;
}

export interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer (a partner that hangs): the connection stays open until the receiver closes. */
  hold?: boolean;
}

/**
 * A partner on 127.0.0.1 (port 0) that verifies each callback with the partner client's verifyCallback against `secrets()` at
 * the service clock's `now()`, records it, and answers with `respond` (default 200 {}).
 */
export async function startReceiver(options: { secrets: () => string[]; now: () => Date }) {
  const received: Received[] = [];
  let respond: (r: Received, index: number) => Reply = () => ({ status: 200, body: '{}' });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      // A receiver that holds no secret verifies nothing (the client's verifyCallback insists on one).
      const secrets = options.secrets();
      const verified =
        secrets.length > 0 && verifyCallback({ headers: req.headers, method: req.method!, pathWithQuery: req.url!, rawBody: body, secrets, now: options.now() }).ok;
      let json: unknown = null;
      try {
        json = body.length ? JSON.parse(body.toString('utf8')) : null;
      } catch {
        json = null;
      }
      const r: Received = {
        method: req.method!,
        url: req.url!,
        deliveryId: String(req.headers['x-service-delivery-id'] ?? ''),
        signature: String(req.headers['x-service-signature'] ?? ''),
        body,
        json,
        verified,
      };
      received.push(r);
      const reply = verified ? respond(r, received.length - 1) : { status: 401, body: '{"code":16,"message":"the signature is not valid","details":[]}' };
      if ('hold' in reply && reply.hold) return;
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/cb`,
    received,
    setRespond(fn: (r: Received, index: number) => Reply) {
      respond = fn;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
