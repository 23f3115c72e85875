import { Type } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { DEFAULT_FAILURE_BACKOFF_MS, DEFAULT_STABLE_FOR_MS, DRIFT_CAP, driftAnswerText, listDriftSkus } from '../../../../domain/listings/drift.js';
import { invalidField } from '../../../../domain/errors.js';
import { parseDuration } from '../../../../lib/duration.js';
import { principalOf } from '../../../plugins/auth.js';
import { v2Query } from '../../../params.js';
import { v2Responses } from '../../../schemas/common.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

export const DriftListingV2 = Type.Object({
  sku: Type.String(),
  listingId: Type.String({ description: 'the service\'s listing id; "" when the variant\'s listing cannot be resolved' }),
});

const DriftQuery = Type.Object(
  {
    stableFor: Type.Optional(Type.String({ description: 'duration (Go `15m`, `1h30m` or proto `900s`); default 15m' })),
    stable_for: Type.Optional(Type.String({ description: 'snake_case alias of stableFor' })),
    failureBackoff: Type.Optional(Type.String({ description: 'duration (Go `24h` or proto `86400s`); default 24h' })),
    failure_backoff: Type.Optional(Type.String({ description: 'snake_case alias of failureBackoff' })),
  },
  { additionalProperties: true },
);

function durationParam(query: Record<string, unknown>, name: string, fallback: number): number {
  const raw = v2Query(query, name);
  if (raw === undefined || raw === '') return fallback;
  const ms = typeof raw === 'string' ? parseDuration(raw) : null;
  if (ms === null) throw invalidField(name, `"${String(raw)}" is not a duration (e.g. 15m, 1h30m, 90s, 900s)`);
  return ms;
}

export function registerListDriftSkus(app: App, deps: Deps) {
  app.get(
    '/v2/storefront/listing/variant/inventory/drift/skus',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'SKUs whose inventory on the channel drifts from what the service intends',
        description:
          'A level check, not a change feed: SKUs of the storefront\'s variants that are live on the channel ' +
          '(a channel id is set) with inventory enabled, whose last successful inventory submission ' +
          '(POST /v2/storefront/listing/submission/{submissionId}/inventory) differs from the quantity the ' +
          'service intends to send (`totalQuantity`), or which never had one. A variant is re-reported on ' +
          'every call until a send lands. `stableFor` (default 15m) leaves out variants whose intended ' +
          'quantity changed more recently; `failureBackoff` (default 24h) leaves a variant alone that long ' +
          `after a failed attempt. Oldest stranded first, at most ${DRIFT_CAP} SKUs with no cursor ` +
          '(`nextPageCursor` is always ""): what is cut off is reported by the next call. `driftListings` ' +
          'has the same length and order as `skus`; a variant whose listing cannot be resolved has listingId "". ' +
          'A non-empty `skus` with an empty `driftListings` must be treated as an error.',
        querystring: DriftQuery,
        response: v2Responses(
          {
            200: Type.Object({
              skus: Type.Array(Type.String()),
              nextPageCursor: Type.String({ description: 'always "" (the drift route has no cursor)' }),
              driftListings: Type.Array(DriftListingV2),
            }),
          },
          [400, 401, 403, 429],
        ),
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const query = request.query as Record<string, unknown>;
      const filter = {
        storefrontId: principal.storefrontId!,
        stableForMs: durationParam(query, 'stableFor', DEFAULT_STABLE_FOR_MS),
        failureBackoffMs: durationParam(query, 'failureBackoff', DEFAULT_FAILURE_BACKOFF_MS),
      };
      const now = deps.clock.now();
      // On SQLite the database writes this answer's JSON itself (src/domain/listings/drift.ts); a JSON
      // string is sent as it is, the same shape the response schema would have written.
      const text = await driftAnswerText(deps.db, principal.accountId, filter, now);
      if (text !== null) return reply.type('application/json; charset=utf-8').send(text);
      const result = await listDriftSkus(deps.db, principal.accountId, filter, now);
      return { skus: result.skus, nextPageCursor: '', driftListings: result.driftListings };
    },
  );
}
