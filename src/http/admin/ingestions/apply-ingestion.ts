import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { applyIngestionForSeller } from '../../../domain/inventory/listing-writes.js';
import { getIngestionJson } from '../../../domain/listings/ingestion-admin.js';
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
          'PLANNED → APPLYING → APPLIED: the plan is applied in chunks of a few listings, each its own transaction that ' +
          're-plans its listings against the current catalog (listings created or updated, catalog products created for ' +
          'unknown SKUs, conflicting variants skipped). The request applies chunks for up to INGESTION_APPLY_WAIT_MS ' +
          '(default 2 s): 200 with the ingestion APPLIED when that was enough, else 202 with it ' +
          'APPLYING and its `progress`; the `ingestion.apply` job applies the rest (poll GET …/ingestions/{ingestionId}). ' +
          'No body.',
        params: IngestionParams,
        response: adminResponses(
          { 200: IngestionDetailView, 202: IngestionDetailView },
          [400, 401, 404, 409],
          'the ingestion is not PLANNED (already applying or applied, open, planning or discarded)',
        ),
      },
    },
    async (request, reply) => {
      const { accountId, ingestionId } = request.params;
      // An unknown ingestion (or another account's) is the 404 of startApply's own lookup.
      const applied = await applyIngestionForSeller(deps.db.db, accountId, ingestionId, () => deps.clock.now(), deps.config.ingestionApplyWaitMs);
      const json = await getIngestionJson(deps.db.db, accountId, ingestionId);
      return reply.code(applied ? 200 : 202).type('application/json; charset=utf-8').send(json);
    },
  );
}
