import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { disconnectStorefront } from '../../../domain/callbacks/triggers.js';
import { Nullable } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { ADMIN_ROUTE_CONFIG, TAGS } from '../schemas.js';
import { StorefrontParams, callbackResponses } from './schemas.js';

const Disconnected = Type.Object(
  { deliveryId: Nullable(Type.String({ description: 'the delete-configuration delivery; null when the app has no callback base URL' })) },
  { examples: [{ deliveryId: '0b8f7a52-6a4e-4d1c-9a57-2f0e3c1d9b11' }] },
);

export function registerDisconnect(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/storefronts/:storefrontId/disconnect',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Disconnect a storefront (delete configuration callback)',
        description:
          "Revokes the storefront's installation and every token issued for it at once (its next request " +
          'answers 401), and in the same transaction queues DELETE {callbackBaseUrl}/v2/storefront/configuration/' +
          '{storefrontId} (document 6.1), delivered afterwards on the callback schedule. Answers 202 with the ' +
          "delivery id (null when the app has no callback base URL: nothing is sent). 409 when already disconnected.",
        params: StorefrontParams,
        response: callbackResponses({ 202: Disconnected }, [400, 401, 404, 409], 'the storefront is already disconnected'),
      },
    },
    async (request, reply) => {
      const { accountId, storefrontId } = request.params;
      const result = await withTx(deps.db.db, (tx) => disconnectStorefront(tx, accountId, storefrontId, deps.clock.now()));
      return reply.code(202).send(result);
    },
  );
}
