import type { App } from './types.js';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Deps } from '../deps.js';
import type { AuthRequirement } from './plugins/auth.js';

const BINDING_TEXT: Record<NonNullable<AuthRequirement['binding']>, string> = {
  storefront: 'a sales-channel installation (storefront)',
  shipping: 'a SHIPPING or THIRD_PARTY_LOGISTICS integration',
  inventory: 'an INVENTORY or THIRD_PARTY_LOGISTICS integration',
};

/**
 * The OpenAPI 3.1 document is generated from the route schemas (one source for validation,
 * serialization and docs) and served at /openapi.json; /docs is the interactive reference, served from
 * local files so it works offline.
 */
export async function registerDocs(app: App, deps: Deps): Promise<void> {
  // Routes declare who may call them in `config`; mirror that into the document so partners see it.
  app.addHook('onRoute', (route) => {
    const config = route.config as { auth?: AuthRequirement; admin?: boolean } | undefined;
    if (!route.schema || (!config?.auth && !config?.admin)) return;
    const schema = route.schema as { security?: unknown; description?: string };
    schema.security ??= [config.admin ? { operatorToken: [] } : { accessToken: [] }];
    const auth = config.auth;
    if (auth) {
      const needs = [
        auth.scopes?.length ? `Scopes: any one of ${auth.scopes.join(', ')}.` : 'Scopes: any valid token.',
        auth.binding ? `Token must belong to ${BINDING_TEXT[auth.binding]}.` : '',
      ].filter(Boolean);
      schema.description = [schema.description, needs.join(' ')].filter(Boolean).join('\n\n');
    }
  });
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
