import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { getAccount } from '../../../domain/accounts/accounts.js';
import { createCustomStore, listCustomStores, MAX_CUSTOM_STORES } from '../../../domain/accounts/custom-stores.js';
import { CustomStore, CustomStoreList } from '../../schemas/custom-stores.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, NameInput, TAGS, adminResponses } from '../schemas.js';

const CreateCustomStoreBody = Type.Object(
  {
    name: NameInput('unique within the account'),
    default: Type.Optional(Type.Boolean({ default: false, description: "make it the account's default store in place of the current one" })),
  },
  { additionalProperties: false, examples: [{ name: 'Phone orders', default: false }] },
);

/** The seller's custom stores (document 2.6, DESIGN.md operator API). */
export function registerAdminCustomStoreRoutes(app: App, deps: Deps): void {
  app.post(
    '/admin/accounts/:accountId/custom-stores',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Create a custom store (an order channel of the seller\'s own)',
        description:
          `Orders reach a custom store by API (POST /v1/salesOrder with its integrationId, seller tokens) or by file. ` +
          `Every account starts with "Manual orders" as its default; \`default: true\` moves the default here. ` +
          `At most ${MAX_CUSTOM_STORES} stores per account (400 beyond).`,
        params: AccountParams,
        body: CreateCustomStoreBody,
        response: adminResponses({ 201: CustomStore }, [400, 401, 404, 409], 'the account already has a custom store with this name'),
      },
    },
    async (request, reply) => {
      const store = await withTx(deps.db.db, (tx) => createCustomStore(tx, request.params.accountId, request.body, deps.clock.now()));
      return reply.code(201).send(store);
    },
  );
  app.get(
    '/admin/accounts/:accountId/custom-stores',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "List an account's custom stores",
        description: 'Every custom store of the account (its own order channels, such as "Manual orders"), the default one marked; the ids are the `integrationId` of order imports and `GET /v1/customStores`.',
        params: AccountParams,
        response: adminResponses({ 200: CustomStoreList }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId } = request.params;
      await getAccount(deps.db.db, accountId);
      return { results: await listCustomStores(deps.db.db, accountId) };
    },
  );
}
