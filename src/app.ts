import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from './deps.js';
import type { App } from './http/types.js';
import { registerDocs } from './http/docs.js';
import { registerHealthRoutes } from './http/health.js';
import { registerMetricsRoute, registerRequestMetrics } from './http/metrics.js';
import { registerAuth } from './http/plugins/auth.js';
import { clientErrorHandlerFor } from './http/plugins/client-errors.js';
import { MAX_PATH_PARAM_LENGTH, registerErrorHandling, renderFrameworkError } from './http/plugins/errors.js';
import { registerEmptyBodies } from './http/plugins/empty-body.js';
import { registerIdempotency } from './http/plugins/idempotency.js';
import { registerJsonBodyParser } from './http/plugins/json-body.js';
import { registerUploads } from './http/plugins/uploads.js';
import { registerBodyLimits } from './http/plugins/body-limits.js';
import { SHARED_SCHEMAS } from './http/schemas/shared.js';
import { buildResponseSerializer } from './http/response-serializers.js';
import { createValidatorCompiler } from './http/validation.js';
import { registerRoutes } from './http/routes.js';
import { registerConsole } from './http/console/index.js';
import { consoleParserErrorPage, isConsoleUrl, renderConsoleFrameworkError } from './http/console/error-pages.js';

export type { App } from './http/types.js';

/** Answers longer than this (in UTF-16 units) are sent as one encoded Buffer (see the onSend hook). */
const LARGE_ANSWER_CHARS = 16_384;

/** Each app's routes with their schemas as registered (the test that compiles every route's schemas reads them). */
export const routeSchemas = new WeakMap<App, { method: string; url: string; schema: Record<string, unknown> }[]>();

/** The one application factory, used by the server and by every test. */
export async function buildApp(deps: Deps): Promise<App> {
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    bodyLimit: deps.config.jsonBodyLimitBytes,
    // Off unless TRUST_PROXY names the proxies: then request.ip, .host and .protocol follow X-Forwarded-*.
    trustProxy: deps.config.trustProxy,
    // Query strings: repeated keys become arrays; "a,b" splitting is done per route (v1 array params).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAM_LENGTH },
    // Refusals that happen before a route is chosen still answer with the contract's error body, or on
    // /console with the console's error page (HTML, its security headers).
    frameworkErrors: (error, request, reply) =>
      isConsoleUrl(request.url) ? renderConsoleFrameworkError(error, request, reply) : renderFrameworkError(error, request, reply),
    clientErrorHandler: clientErrorHandlerFor(deps.log as FastifyBaseLogger, consoleParserErrorPage),
    // The error handler renders validation problems from error.validation; Fastify's default formatter
    // would also join every problem into one message nobody reads (100,000 of them for a big bad body).
    schemaErrorFormatter: (_errors, dataVar) => new Error(`invalid ${dataVar}`),
    // Serializers that never validate at run time (no Ajv compile on a route's first answer): see the file.
    schemaController: { compilersFactory: { buildSerializer: buildResponseSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(createValidatorCompiler());
  // Schemas compile on each route's first request (validation.ts): this list lets a test compile them all.
  const schemas: { method: string; url: string; schema: Record<string, unknown> }[] = [];
  routeSchemas.set(app, schemas);
  app.addHook('onRoute', (route) => {
    if (route.schema) schemas.push({ method: String(route.method), url: route.url, schema: route.schema as Record<string, unknown> });
  });
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);

  // Synchronous hook: it runs on every request, and an async one costs a promise each time.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  registerRequestMetrics(app, deps);
  // A big answer (a page of orders is ~200 KB) is a string built from many pieces. Fastify measures its
  // UTF-8 length for Content-Length, then the socket encodes it again: encoding it once into a Buffer
  // saves one pass over it. Small answers are cheaper as they are. GETs only: the Idempotency-Key hook of
  // POST routes (which runs after this one) stores answers as text.
  app.addHook('onSend', (request, _reply, payload, done) => {
    const large = typeof payload === 'string' && payload.length > LARGE_ANSWER_CHARS && request.method === 'GET';
    done(null, large ? Buffer.from(payload) : payload);
  });

  registerErrorHandling(app);
  registerJsonBodyParser(app);
  await app.register(formbody);
  await registerUploads(app, deps);
  registerBodyLimits(app, deps);
  registerEmptyBodies(app);
  await registerDocs(app, deps);
  registerAuth(app, deps);
  registerIdempotency(app, deps);
  registerHealthRoutes(app, deps);
  registerMetricsRoute(app, deps);
  await registerRoutes(app, deps);
  await registerConsole(app, deps);
  await app.ready();
  return app;
}
