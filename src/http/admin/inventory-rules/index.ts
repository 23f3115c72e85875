import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { enqueueChannelRulesJob } from '../../../jobs/handlers/apply-channel-rules.js';
import { getChannelRules, replaceChannelRules, type ChannelRulesInput } from '../../../domain/inventory/channel-rules-store.js';
import { Nullable } from '../../schemas/common.js';
import { ADMIN_ROUTE_CONFIG, Id, TAGS, adminResponses } from '../schemas.js';
import { RulesBody } from './schemas.js';

const Params = Type.Object({ accountId: Id('account id'), storefrontId: Id('storefront id (its SALES_CHANNEL installation)') });

const OverrideOut = Type.Object(
  {
    sku: Type.String(),
    warehouseIds: Type.Optional(Nullable(Type.Array(Type.Integer()))),
    percent: Type.Optional(Type.Integer()),
    safetyQuantity: Type.Optional(Type.Integer()),
    maxQuantity: Type.Optional(Nullable(Type.Integer())),
    fixedQuantity: Type.Optional(Nullable(Type.Integer())),
  },
  { description: 'only the fields the override sets' },
);

const RulesOut = Type.Object({
  storefrontId: Type.Integer(),
  warehouseIds: Type.Array(Type.Integer(), { description: 'the defaults resolved when none were set' }),
  percent: Type.Integer(),
  safetyQuantity: Type.Integer(),
  maxQuantity: Nullable(Type.Integer()),
  fixedQuantity: Nullable(Type.Integer()),
  skuOverrides: Type.Array(OverrideOut),
  updatedAt: Nullable(Type.String({ format: 'date-time', description: 'null while nobody has set rules' })),
});

const DESCRIPTION =
  'How much of the seller’s own stock a storefront is told to list (resolutions §9): for each variant, the available units ' +
  'of `warehouseIds` summed; a `fixedQuantity` is listed as it is; else `percent` of them, rounded down, 0 when at or under ' +
  '`safetyQuantity`, at most `maxQuantity`. Per-SKU overrides replace fields one by one. Channel-fulfilled stock is not ' +
  'ruled. Orders are never refused by rules.';

export function registerAdminInventoryRuleRoutes(app: App, deps: Deps): void {
  app.get(
    '/admin/accounts/:accountId/storefronts/:storefrontId/inventory-rules',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: { tags: TAGS, summary: "A storefront's inventory rules", description: DESCRIPTION, params: Params, response: adminResponses({ 200: RulesOut }, [400, 401, 404]) },
    },
    async (request) => getChannelRules(deps.db.db, request.params.accountId, request.params.storefrontId),
  );

  app.put(
    '/admin/accounts/:accountId/storefronts/:storefrontId/inventory-rules',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "Replace a storefront's inventory rules",
        description: `${DESCRIPTION} Replaces the whole set: fields left out take their defaults and overrides left out go (an empty body resets). One bad value refuses the whole change (400 naming the field).`,
        params: Params,
        body: RulesBody,
        response: adminResponses({ 200: RulesOut }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, storefrontId } = request.params;
      const now = deps.clock.now();
      return withTx(deps.db.db, async (tx) => {
        const { rules, changed } = await replaceChannelRules(tx, accountId, storefrontId, request.body as ChannelRulesInput, now);
        // The variants move to the new rules in the background, in bounded steps (src/jobs/handlers/apply-channel-rules.ts).
        if (changed) await enqueueChannelRulesJob(tx, accountId, storefrontId, now);
        return rules;
      });
    },
  );
}
