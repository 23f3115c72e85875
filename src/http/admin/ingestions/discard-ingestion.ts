import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { getIngestion } from '../../../domain/listings/ingestion-admin.js';
import { discardIngestion } from '../../../domain/listings/ingestion-apply.js';
import { IngestionDetailView, IngestionParams } from '../../schemas/ingestion.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { TAGS } from './tags.js';

export function registerDiscardIngestion(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/ingestions/:ingestionId/discard',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Discard an ingestion',
        description:
          'OPEN, PLANNED or FAILED → DISCARDED; nothing is applied. Discarding an open session lets the channel ' +
          'begin a new one. No body.',
        params: IngestionParams,
        response: adminResponses({ 200: IngestionDetailView }, [400, 401, 404, 409], 'the ingestion is APPLIED, PLANNING or already DISCARDED'),
      },
    },
    async (request) => {
      const { accountId, ingestionId } = request.params;
      return withTx(deps.db.db, async (tx) => {
        await discardIngestion(tx, accountId, ingestionId, deps.clock.now());
        return getIngestion(tx, accountId, ingestionId);
      });
    },
  );
}
