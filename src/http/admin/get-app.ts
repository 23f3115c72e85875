import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { EVENT_TYPES } from '../../domain/callbacks/nudges.js';
import { describeAppCallbacks } from '../../domain/callbacks/subscriptions.js';
import { Nullable, Timestamp } from '../schemas/common.js';
import { ADMIN_ROUTE_CONFIG, AppKindSchema, AppParams, ScopeSchema, TAGS, adminResponses } from './schemas.js';

export const AppView = Type.Object(
  {
    appId: Type.Integer(),
    name: Type.String(),
    kind: AppKindSchema,
    scopes: Type.Array(ScopeSchema),
    clientId: Type.String(),
    contactEmail: Type.String(),
    redirectUri: Type.String(),
    logoUrl: Nullable(Type.String()),
    callbackBaseUrl: Nullable(Type.String()),
    createdAt: Timestamp,
    previousSecretsValidUntil: Nullable(
      Type.String({ format: 'date-time', description: 'until then the secrets replaced by the last rotation still work' }),
    ),
    eventTypes: Type.Array(Type.String({ enum: [...EVENT_TYPES] }), {
      description: 'the extension nudges the app subscribed to (docs/partners/callback-nudges.md)',
    }),
  },
  {
    examples: [
      {
        appId: 4,
        name: 'ShipFast',
        kind: 'SHIPPING',
        scopes: ['sales:orders:fulfillment:self'],
        clientId: '9f2c4e1a0b7d3c5e8f10',
        contactEmail: 'dev@shipfast.example',
        redirectUri: 'https://shipfast.example/oauth/callback',
        logoUrl: null,
        callbackBaseUrl: 'https://shipfast.example/callbacks',
        createdAt: '2026-11-21T22:13:08.123Z',
        previousSecretsValidUntil: null,
        eventTypes: ['FULFILLMENT_ORDER_CHANGED', 'CANCELLATION_REQUESTED'],
      },
    ],
  },
);

export function registerGetApp(app: App, deps: Deps) {
  app.get(
    '/admin/apps/:appId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Get a partner application (without its secrets)',
        description: 'The application as registered: kind, name, redirect URIs, callback base URL, nudge subscriptions and when replaced secrets stop working. Secrets are shown once, when created or rotated, never here.',
        params: AppParams,
        response: adminResponses({ 200: AppView }, [400, 401, 404]),
      },
    },
    async (request) => describeAppCallbacks(deps.db.db, request.params.appId),
  );
}
