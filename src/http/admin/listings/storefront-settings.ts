import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { checkSettings, requireStorefront, setStorefrontSettings, storefrontSettingsFor } from '../../../domain/listings/storefront-settings.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { Settings, StorefrontParams, TAGS } from './schemas.js';

const Body = Type.Object({ settings: Settings }, { additionalProperties: false, examples: [{ settings: { fulfillmentLatencyDays: '2' } }] });
const Out = Type.Object({ storefrontId: Type.Integer(), settings: Settings });

export function registerAdminStorefrontSettings(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/storefronts/:storefrontId/settings',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "Read a storefront's integration-level settings",
        description: 'The settings of one storefront (a sales-channel installation of the account) as the last PUT left them, or the defaults.',
        params: StorefrontParams,
        response: adminResponses({ 200: Out }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, storefrontId } = request.params;
      await requireStorefront(deps.db.db, accountId, storefrontId);
      return { storefrontId, settings: await storefrontSettingsFor(deps.db.db, accountId, storefrontId) };
    },
  );
  app.put(
    '/admin/accounts/:accountId/storefronts/:storefrontId/settings',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "Set a storefront's integration-level settings",
        description:
          'Replaces the settings. Every variant of the storefront serves them merged with its own settings (the ' +
          "variant's value wins on a shared key), so a change moves all of the storefront's listings in " +
          '`product_data/updated`.',
        params: StorefrontParams,
        body: Body,
        response: adminResponses({ 200: Out }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, storefrontId } = request.params;
      const settings = checkSettings('settings', request.body.settings);
      const now = deps.clock.now();
      return { storefrontId, settings: await withTx(deps.db.db, (tx) => setStorefrontSettings(tx, accountId, storefrontId, settings, now)) };
    },
  );
}
