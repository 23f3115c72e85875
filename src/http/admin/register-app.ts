import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { registerApp } from '../../domain/accounts/apps.js';
import { ADMIN_ROUTE_CONFIG, AppKindSchema, NameInput, ScopeList, Secrets, TAGS, adminResponses } from './schemas.js';

export const RegisterAppBody = Type.Object(
  {
    name: NameInput('shown to sellers; for a sales channel also the channel name orders carry'),
    contactEmail: Type.String({ minLength: 3, maxLength: 320 }),
    redirectUri: Type.String({ minLength: 1, maxLength: 2000, description: 'absolute http(s) URL; POST /v1/token must repeat it exactly' }),
    logoUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    kind: AppKindSchema,
    scopes: ScopeList,
    callbackBaseUrl: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        description:
          'where callbacks are delivered (paths are appended, its own path kept): https, not a loopback, private or ' +
          'link-local address nor localhost, unless CALLBACKS_ALLOW_PRIVATE is set; no query or fragment',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'ShipFast',
        contactEmail: 'dev@shipfast.example',
        redirectUri: 'https://shipfast.example/oauth/callback',
        kind: 'SHIPPING',
        scopes: ['sales:orders:fulfillment:self'],
        callbackBaseUrl: 'https://shipfast.example/callbacks',
      },
    ],
  },
);

const AppCredentials = Type.Object(
  { appId: Type.Integer(), ...Secrets },
  {
    examples: [
      {
        appId: 4,
        clientId: '9f2c4e1a0b7d3c5e8f10',
        clientSecret: '5b0e…64 hex…',
        callbackSigningSecret: 'c41d…64 hex…',
      },
    ],
  },
);

export function registerRegisterApp(app: App, deps: Deps) {
  app.post(
    '/admin/apps',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Register a partner application',
        description: 'Returns the client credentials and the callback signing secret. The secrets are shown only here.',
        body: RegisterAppBody,
        response: adminResponses({ 201: AppCredentials }, [400, 401]),
      },
    },
    async (request, reply) => {
      const credentials = await withTx(deps.db.db, (tx) => registerApp(tx, deps.signer, request.body, deps.clock.now(), { callbacksAllowPrivate: deps.config.callbacksAllowPrivate }));
      return reply.code(201).header('Cache-Control', 'no-store').send(credentials);
    },
  );
}
