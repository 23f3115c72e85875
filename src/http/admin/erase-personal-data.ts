import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../domain/errors.js';
import { eraseBuyerPersonalData } from '../../domain/personal-data/erase-buyer.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, TAGS, adminResponses } from './schemas.js';

const EraseBody = Type.Object(
  {
    customerEmail: Type.String({
      minLength: 3,
      maxLength: 320,
      // One @ with something on each side; surrounding spaces are allowed (the match trims them).
      pattern: '^\\s*[^@\\s]+@[^@\\s]+\\s*$',
      description: "the buyer's email as orders hold it (compared trimmed and in any case)",
    }),
  },
  { additionalProperties: false, examples: [{ customerEmail: 'ada.buyer@example.com' }] },
);

const EraseAnswer = Type.Object({
  redactedOrders: Type.Integer({ description: 'closed orders of the buyer redacted by this request' }),
  pendingOrders: Type.Integer({ description: 'open orders of the buyer, recorded and redacted as soon as they close' }),
});

/** Who the audit entry names for the operator API (one shared operator token, no personal identity). */
const OPERATOR = 'operator-api';

export function registerErasePersonalData(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/personal-data/erase',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "Erase a buyer's personal data",
        description:
          "Erasure on request (resolutions §10): every order of the account whose customer email or ship-to email is `customerEmail` " +
          'loses its personal data: closed orders at once, open ones as soon as they close (recorded, so a restart does not forget ' +
          'them). An audit entry keeps who asked, when and how many orders, never the email. See docs/operators/personal-data.md.',
        params: AccountParams,
        body: EraseBody,
        response: adminResponses({ 200: EraseAnswer }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId } = request.params;
      const account = await deps.db.db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
      if (!account) throw notFound(`account ${accountId} not found`);
      return eraseBuyerPersonalData(deps.db.db, accountId, request.body.customerEmail, OPERATOR, () => deps.clock.now());
    },
  );
}
