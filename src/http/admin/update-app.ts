import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { EVENT_TYPES } from '../../domain/callbacks/nudges.js';
import { updateAppCallbacks } from '../../domain/callbacks/subscriptions.js';
import { Nullable } from '../schemas/common.js';
import { AppView } from './get-app.js';
import { ADMIN_ROUTE_CONFIG, AppParams, TAGS, adminResponses } from './schemas.js';

export const UpdateAppBody = Type.Object(
  {
    callbackBaseUrl: Type.Optional(
      Nullable(Type.String({ minLength: 1, maxLength: 2000, description: 'https (no private targets unless CALLBACKS_ALLOW_PRIVATE); null removes it' })),
    ),
    // Plain strings, checked by the domain, so an unknown type is answered with the list of allowed ones.
    eventTypes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: EVENT_TYPES.length * 2,
        description: `the whole new subscription list (empty: none); allowed: ${EVENT_TYPES.join(', ')}`,
      }),
    ),
  },
  { additionalProperties: false, examples: [{ callbackBaseUrl: 'https://shipfast.example/callbacks', eventTypes: ['FULFILLMENT_ORDER_CHANGED'] }] },
);

export function registerUpdateApp(app: App, deps: Deps) {
  app.patch(
    '/admin/apps/:appId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "Change an app's callback base URL and its extension nudge subscriptions",
        description:
          'Absent fields are unchanged. eventTypes replaces the whole list; subscribing needs a callback base URL. ' +
          'Nudges are an extension beyond the contract: see docs/partners/callback-nudges.md.',
        params: AppParams,
        body: UpdateAppBody,
        response: adminResponses({ 200: AppView }, [400, 401, 404]),
      },
    },
    async (request) =>
      withTx(deps.db.db, (tx) =>
        updateAppCallbacks(tx, request.params.appId, request.body, deps.clock.now(), { callbacksAllowPrivate: deps.config.callbacksAllowPrivate }),
      ),
  );
}
