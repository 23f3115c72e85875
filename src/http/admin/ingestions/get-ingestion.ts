import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { getIngestionJson } from '../../../domain/listings/ingestion-admin.js';
import { IngestionDetailView, IngestionParams } from '../../schemas/ingestion.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { TAGS } from './tags.js';

export function registerGetIngestion(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/ingestions/:ingestionId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Get an ingestion with its plan',
        description:
          'Status, counts and the ingestion plan (null until built): per listing CREATE, UPDATE or SKIP, per variant ' +
          'MATCH (catalog product exists) or CREATE_PRODUCT, and every conflict.',
        params: IngestionParams,
        response: adminResponses({ 200: IngestionDetailView }, [400, 401, 404]),
      },
    },
    async (request, reply) => {
      const json = await getIngestionJson(deps.db.db, request.params.accountId, request.params.ingestionId);
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );
}
