import type { App } from './types.js';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Deps } from '../deps.js';

/**
 * The OpenAPI 3.1 document is generated from the route schemas (one source for validation,
 * serialization and docs) and served at /openapi.json; /docs is the interactive reference, served from
 * local files so it works offline.
 */
export async function registerDocs(app: App, deps: Deps): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Multichannel Commerce Service API',
        version: '1.0.0',
        description:
          'Sales channels, shipping/3PL and inventory systems integrate here on behalf of sellers. ' +
          'v1 errors are {errorCode, errorMessages, referenceId}; v2 errors are google.rpc.Status. ' +
          'Guides: docs/partners in the repository.',
      },
      ...(deps.config.publicBaseUrl ? { servers: [{ url: deps.config.publicBaseUrl }] } : {}),
      components: {
        securitySchemes: {
          accessToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'Access token from POST /v1/token (or an ad-hoc token). "Bearer " is optional.',
          },
          operatorToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN, for /admin only.' },
          clientBasic: { type: 'http', scheme: 'basic', description: 'client_id:client_secret' },
        },
      },
      tags: [
        { name: 'token', description: 'OAuth 2.0 authorization-code exchange' },
        { name: 'v1 inventory', description: 'Inventory reads and updates (v1)' },
        { name: 'v2 inventory', description: 'Inventory integrations (v2)' },
        { name: 'admin', description: 'Operator API (ADMIN_TOKEN)' },
        { name: 'operations', description: 'Health and readiness' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
