import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { createWarehouse } from '../../domain/accounts/warehouses.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, NameInput, TAGS, Warehouse, adminResponses } from './schemas.js';

export const CreateWarehouseBody = Type.Object(
  {
    name: NameInput('unique within the account'),
    channelFulfilled: Type.Optional(
      Type.Boolean({ default: false, description: "a sales channel's own fulfilment network (e.g. a marketplace's)" }),
    ),
  },
  { additionalProperties: false, examples: [{ name: 'East', channelFulfilled: false }] },
);

export function registerCreateWarehouse(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/warehouses',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Create a warehouse in an account',
        description: 'A warehouse stock is kept and orders are routed to. `channelFulfilled` marks a sales channel\'s own network, which only that channel\'s orders may use. A name the account already has is a 409.',
        params: AccountParams,
        body: CreateWarehouseBody,
        response: adminResponses({ 201: Warehouse }, [400, 401, 404, 409], 'the account already has a warehouse with this name'),
      },
    },
    async (request, reply) => {
      const { accountId } = request.params;
      const warehouse = await withTx(deps.db.db, (tx) => createWarehouse(tx, accountId, request.body, deps.clock.now()));
      return reply.code(201).send(warehouse);
    },
  );
}
