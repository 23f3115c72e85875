import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { applyIngestionWithStock } from '../../../domain/inventory/listing-writes.js';
import { getIngestion } from '../../../domain/listings/ingestion-admin.js';
import { IngestionDetailView, IngestionParams } from '../../schemas/ingestion.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { TAGS } from './tags.js';

export function registerApplyIngestion(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/ingestions/:ingestionId/apply',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Apply an ingestion plan',
        description:
          'PLANNED → APPLIED: rebuilds the plan against the current catalog and applies it in one transaction ' +
          '(listings created or updated, catalog products created for unknown SKUs, conflicting variants skipped). ' +
          'No body. Returns the ingestion with the applied plan.',
        params: IngestionParams,
        response: adminResponses({ 200: IngestionDetailView }, [400, 401, 404, 409], 'the ingestion is not PLANNED (already applied, open, planning or discarded)'),
      },
    },
    async (request) => {
      const { accountId, ingestionId } = request.params;
      return withTx(deps.db.db, async (tx) => {
        const now = deps.clock.now();
        await applyIngestionWithStock(tx, accountId, ingestionId, now);
        return getIngestion(tx, accountId, ingestionId);
      });
    },
  );
}
