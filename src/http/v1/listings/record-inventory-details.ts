import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { parseSubmissionId, recordSubmissionInventory } from '../../../domain/listings/submission-inventory.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';

const Params = Type.Object({ submissionID: Type.String({ description: 'the submission id the service assigned' }) });

const Body = Type.Object({
  inventoryLevelSent: Type.Integer({ minimum: 0, description: 'units sent to the channel' }),
  successful: Type.Boolean({ description: 'whether the channel accepted the level' }),
}, { examples: [{ inventoryLevelSent: 12, successful: true }] });

export function registerV1RecordInventoryDetails(app: App, deps: Deps) {
  app.post(
    '/v1/listing/submissions/:submissionID/inventoryDetails',
    {
      config: { auth: { scopes: ['listing:self'] } },
      schema: {
        tags: ['v1 listings'],
        summary: 'Record the inventory level a submission sent',
        description:
          'Advised whenever a submission carried inventory information. The same record as ' +
          'POST /v2/storefront/listing/submission/{submissionId}/inventory: stored on the submission and, ' +
          'through the variant with the submission\'s SKU, feeding the drift poll. A storefront\'s token records ' +
          'on its own submissions only; another storefront\'s or an unknown id is a 404. Answers the JSON string "OK".',
        params: Params,
        body: Body,
        response: v1Responses({ 200: Type.String({ examples: ['OK'] }) }, [400, 401, 403, 404, 409, 413, 429]),
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const submissionId = parseSubmissionId('submissionID', request.params.submissionID);
      await withTx(deps.db.db, (tx) =>
        recordSubmissionInventory(tx, principal.accountId, { storefrontId: principal.storefrontId }, submissionId, request.body, deps.clock.now()),
      );
      // Fastify sends a returned string as is (text/plain); the document's answer is a JSON string.
      return reply.type('application/json; charset=utf-8').send(JSON.stringify('OK'));
    },
  );
}
