import { Type, type Static } from '@sinclair/typebox';
import type { App } from '../../../types.js';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { invalidField } from '../../../../domain/errors.js';
import { parseSubmissionId, recordSubmissionInventory } from '../../../../domain/listings/submission-inventory.js';
import { principalOf } from '../../../plugins/auth.js';
import { Int64Input, v2Responses } from '../../../schemas/common.js';
import { STOREFRONT_ROUTE_CONFIG, TAGS } from '../route-config.js';

const Params = Type.Object({ submissionId: Type.String({ description: 'int64: the submissionId the service assigned' }) });

/**
 * proto3 JSON: camelCase names with snake_case aliases; an absent field is its zero value (a protojson
 * client omits `successful: false` and `inventoryLevelSent: 0`).
 */
const Body = Type.Object({
  inventoryLevelSent: Type.Optional(Int64Input),
  inventory_level_sent: Type.Optional(Int64Input),
  successful: Type.Optional(Type.Boolean()),
}, { examples: [{ inventoryLevelSent: '12', successful: true }] });
type Body = Static<typeof Body>;

/** int64 as string or number → a number (the domain checks range and sign). */
function int64Value(field: string, value: string | number | undefined): number {
  if (value === undefined) return 0;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw invalidField(field, `"${String(value)}" is out of range`);
  return n;
}

export function registerRecordSubmissionInventory(app: App, deps: Deps) {
  app.post(
    '/v2/storefront/listing/submission/:submissionId/inventory',
    {
      config: STOREFRONT_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Record the inventory level a submission sent',
        description:
          'Records on the storefront\'s submission the inventory level it sent and whether the channel took ' +
          'it (the same record as POST /v1/listing/submissions/{submissionID}/inventoryDetails). It feeds the ' +
          'drift poll through the variant with the submission\'s SKU: a successful send of the intended ' +
          'quantity ends the drift; a failed one keeps the variant out of the drift poll for `failureBackoff`. ' +
          '`inventoryLevelSent` is int64 (string or number), at least 0. Another storefront\'s or an unknown ' +
          'submission id is a 404. Response {}.',
        params: Params,
        body: Body,
        response: v2Responses({ 200: Type.Object({}) }, [400, 401, 403, 404, 409, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const body: Body = request.body ?? {};
      const submissionId = parseSubmissionId('submissionId', request.params.submissionId);
      const input = {
        inventoryLevelSent: int64Value('inventoryLevelSent', body.inventoryLevelSent ?? body.inventory_level_sent),
        successful: body.successful ?? false,
      };
      await withTx(deps.db.db, (tx) =>
        recordSubmissionInventory(tx, principal.accountId, { storefrontId: principal.storefrontId }, submissionId, input, deps.clock.now()),
      );
      return {};
    },
  );
}
