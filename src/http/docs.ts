import type { FastifySchema } from 'fastify';
import type { App } from './types.js';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Deps } from '../deps.js';
import type { AuthRequirement } from './plugins/auth.js';
import { adminTagOf, openApiPathOf, operationIdOf } from './operation-ids.js';

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
    // Fastify adds a HEAD route for every GET from the GET's options, already described (and hidden
    // from the document): describing it again is what printed "Scopes: …" twice.
    if (route.method === 'HEAD' || !route.schema) return;
    // The name generated clients give the operation (src/http/operation-ids.ts). A copy of the schema, never
    // the route's own object: a schema object may be shared with other routes.
    const method = Array.isArray(route.method) ? route.method[0]! : route.method;
    const operationId = (route.schema as { operationId?: string }).operationId ?? operationIdOf(method, openApiPathOf(route.url));
    const path = openApiPathOf(route.url);
    const tags = path.startsWith('/admin/') ? { tags: [adminTagOf(path)] } : {};
    if (operationId) route.schema = { ...route.schema, ...tags, operationId } as FastifySchema;
    if (!config?.auth && !config?.admin) return;
    const schema: FastifySchema & { description?: string } = { ...route.schema };
    schema.security ??= [config.admin ? { operatorToken: [] } : { accessToken: [] }];
    const auth = config.auth;
    if (auth) {
      const needs = [
        auth.scopes?.length ? `Scopes: any one of ${auth.scopes.join(', ')}.` : 'Scopes: any valid token.',
        auth.binding ? `Token must belong to ${BINDING_TEXT[auth.binding]}.` : '',
      ].filter(Boolean);
      schema.description = [schema.description, needs.join(' ')].filter(Boolean).join('\n\n');
    }
    // A route that reads a body also refuses one of another type (415), with the same error body as its 400.
    const responses = schema.response as Record<string, unknown> | undefined;
    if (schema.body && responses?.['400'] && !responses['415']) {
      const description = 'the body has a Content-Type this route does not take (JSON routes take application/json)';
      schema.response = { ...responses, 415: { ...(responses['400'] as object), description } };
    }
    route.schema = schema;
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
      // Without a public base URL, "/": the service that serves the document (what /docs calls).
      servers: [{ url: deps.config.publicBaseUrl ?? '/' }],
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
        { name: 'operations', description: 'Health and readiness' },
      ],
    },
    // Every tag an operation uses is listed once at the top, in order, so the reference shows each area.
    transformObject: (document) => ('openapiObject' in document ? withEveryTagListed(document.openapiObject as OpenApiWithTags) : document.swaggerObject),
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // The default policy ends with upgrade-insecure-requests, which makes a browser fetch the page's
    // scripts and /openapi.json over https: on a plain-http service (the sandbox) /docs stays blank.
    // Every resource is same-origin, so the directive adds nothing over https.
    transformStaticCSP: (header) => withoutUpgradeInsecureRequests(header),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/** Drops the upgrade-insecure-requests directive from a Content-Security-Policy value. */
export function withoutUpgradeInsecureRequests(policy: string): string {
  return policy
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d !== '' && d.toLowerCase() !== 'upgrade-insecure-requests')
    .join('; ')
    .concat(';');
}

interface OpenApiWithTags {
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Record<string, { tags?: string[] }>>;
}

/** The document with a top-level entry for every tag its operations use (described ones keep their text). */
export function withEveryTagListed<T extends OpenApiWithTags>(document: T): T {
  const listed = new Map((document.tags ?? []).map((t) => [t.name, t]));
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const name of operation.tags ?? []) if (!listed.has(name)) listed.set(name, { name, description: name.startsWith('admin: ') ? `Operator API: ${name.slice(7)}` : name });
    }
  }
  return { ...document, tags: [...listed.values()] };
}
