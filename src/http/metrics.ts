import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Type } from '@sinclair/typebox';
import type { App } from './types.js';
import type { Deps } from '../deps.js';

/** The route label of a request no route matched (404s, 405s): the raw URL would make a series per URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Prometheus metrics (docs/operators/monitoring.md): every response is counted and timed by route
 * template. Registered before any route, so every route has the hook.
 */
export function registerRequestMetrics(app: App, deps: Deps): void {
  const { httpRequests, httpDuration } = deps.metrics;
  // Synchronous, like every per-request hook here: an async one costs a promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = String(reply.statusCode);
    httpRequests.labels(request.method, route, status).inc();
    httpDuration.labels(request.method, route, status).observe(reply.elapsedTime / 1000);
    done();
  });
}

/**
 * GET /metrics on the API port, protected like /admin, unless METRICS_PORT moves it to a port of its own
 * (startMetricsServer). Registered after the docs plugin, which documents it for operators.
 */
export function registerMetricsRoute(app: App, deps: Deps): void {
  if (deps.config.metricsPort !== null) return;
  app.get(
    '/metrics',
    {
      config: { admin: true },
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics (operators; ADMIN_TOKEN)',
        description:
          'The Prometheus text format. Served here unless METRICS_PORT moves it to a port of its own. ' +
          'See docs/operators/monitoring.md for every metric and the alerts to set.',
        produces: ['text/plain'],
        response: { 200: Type.String({ description: 'Prometheus text exposition format 0.0.4' }) },
      },
    },
    async (_request, reply) => {
      const text = await deps.metrics.registry.metrics();
      return reply.type(deps.metrics.registry.contentType).send(text);
    },
  );
}

export interface MetricsServer {
  /** The port it listens on (the actual one when METRICS_PORT is 0). */
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * METRICS_PORT: GET /metrics alone, without authentication, on METRICS_HOST (127.0.0.1 by default), for a
 * scraper inside a private network. The API port then has no /metrics at all.
 */
export async function startMetricsServer(deps: Deps, port: number, host: string): Promise<MetricsServer> {
  const { registry } = deps.metrics;
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': registry.contentType });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        deps.log.error({ err: error }, 'metrics: scrape failed');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    port: address.port,
    url: `http://${hostPart}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
