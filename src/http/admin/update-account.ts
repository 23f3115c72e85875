import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS, updateAccountSettings } from '../../domain/accounts/account-settings.js';
import { Nullable } from '../schemas/common.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, AccountWithSettings, TAGS, adminResponses } from './schemas.js';

// Codes and zone names are plain strings checked by the domain (the console's form shares the check), so a
// bad one is answered with what is expected instead of a 418-entry enum.
export const UpdateAccountBody = Type.Object(
  {
    currencyCode: Type.Optional(Type.String({ minLength: 1, maxLength: 10, description: 'ISO 4217 code in capitals, such as USD or EUR' })),
    timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone name, such as UTC or America/New_York' })),
    personalDataRetentionDays: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: MIN_RETENTION_DAYS,
          maximum: MAX_RETENTION_DAYS,
          description: "days buyers' personal data is kept after an order closes; null keeps it (docs/operators/personal-data.md)",
        }),
      ),
    ),
  },
  { additionalProperties: false, examples: [{ currencyCode: 'EUR', timeZone: 'Europe/Berlin', personalDataRetentionDays: 90 }] },
);

export function registerUpdateAccount(app: App, deps: Deps) {
  app.patch(
    '/admin/accounts/:accountId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "Change a seller account's settings",
        description:
          'Account settings (resolutions §10): the currency the console shows money in, the time zone it shows dates in, and how ' +
          "many days buyers' personal data is kept after an order closes. Absent fields are unchanged; one bad value refuses the " +
          'whole change (400 naming the field).',
        params: AccountParams,
        body: UpdateAccountBody,
        response: adminResponses({ 200: AccountWithSettings }, [400, 401, 404]),
      },
    },
    async (request) => withTx(deps.db.db, (tx) => updateAccountSettings(tx, request.params.accountId, request.body)),
  );
}
