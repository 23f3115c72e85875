import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { requestIngestion } from '../../../domain/callbacks/triggers.js';
import type { App } from '../../types.js';
import { ADMIN_ROUTE_CONFIG, TAGS } from '../schemas.js';
import { DeliveryAccepted, StorefrontParams, callbackResponses } from './schemas.js';

export const IngestionRequestBody = Type.Object(
  {
    skus: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 10000, description: 'SKUs to ingest; empty or absent = all' })),
    autoApplyIngestionPlan: Type.Optional(Type.Boolean({ description: 'apply the plan without review once the partner ends the ingestion', default: false })),
  },
  { additionalProperties: false, examples: [{ skus: ['SKU-1'], autoApplyIngestionPlan: false }] },
);

export function registerIngestionRequest(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/storefronts/:storefrontId/ingestion-request',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Ask the storefront’s partner to push its live listings (initiate ingestion callback)',
        description:
          'Queues POST {callbackBaseUrl}/ingestion/initiate with {storefrontId (string), skus (empty = all), ' +
          'autoApplyIngestionPlan} (document 6.1), signed (5.5) and retried on the callback schedule. Answers 202 ' +
          'with the delivery id at once; the partner then pushes listings with the ingestion routes. 400 when the ' +
          "storefront's app has no callback base URL; 409 when the storefront is disconnected.",
        params: StorefrontParams,
        body: IngestionRequestBody,
        response: callbackResponses({ 202: DeliveryAccepted }, [400, 401, 404, 409], 'the storefront is disconnected'),
      },
      // No body at all means every SKU, no automatic apply.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    async (request, reply) => {
      const { accountId, storefrontId } = request.params;
      const result = await withTx(deps.db.db, (tx) => requestIngestion(tx, accountId, storefrontId, request.body, deps.clock.now()));
      return reply.code(202).send(result);
    },
  );
}
