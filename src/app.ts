import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from './deps.js';
import type { App } from './http/types.js';
import { registerDocs } from './http/docs.js';
import { registerHealthRoutes } from './http/health.js';
import { registerAuth } from './http/plugins/auth.js';
import { registerEmptyBodies } from './http/plugins/empty-body.js';
import { registerErrorHandling } from './http/plugins/errors.js';
import { registerIdempotency } from './http/plugins/idempotency.js';
import { V1Error, V2Error } from './http/schemas/common.js';
import { createValidatorCompiler } from './http/validation.js';
import { registerRoutes } from './http/routes.js';

export type { App } from './http/types.js';

/** The one application factory, used by the server and by every test. */
export async function buildApp(deps: Deps): Promise<App> {
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    bodyLimit: deps.config.jsonBodyLimitBytes,
    // Query strings: repeated keys become arrays; "a,b" splitting is done per route (v1 array params).
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(createValidatorCompiler());
  app.addSchema(V1Error);
  app.addSchema(V2Error);

  // Synchronous hook: it runs on every request, and an async one costs a promise each time.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });

  registerErrorHandling(app);
  await app.register(formbody);
  registerEmptyBodies(app);
  await registerDocs(app, deps);
  registerAuth(app, deps);
  registerIdempotency(app, deps);
  registerHealthRoutes(app, deps);
  await registerRoutes(app, deps);
  await app.ready();
  return app;
}
