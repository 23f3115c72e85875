import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { createAccount } from '../../domain/accounts/accounts.js';
import { ADMIN_ROUTE_CONFIG, Account, NameInput, TAGS, adminResponses } from './schemas.js';

export const CreateAccountBody = Type.Object(
  { name: NameInput('seller name') },
  { additionalProperties: false, examples: [{ name: 'Acme Outdoor' }] },
);

export function registerCreateAccount(app: App, deps: Deps) {
  app.post(
    '/admin/accounts',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Create a seller account',
        description: 'A new seller account with the default settings (USD, UTC) and its default custom store "Manual orders". Add warehouses, users and installations to it next.',
        body: CreateAccountBody,
        response: adminResponses({ 201: Account }, [400, 401]),
      },
    },
    async (request, reply) => {
      const account = await withTx(deps.db.db, (tx) => createAccount(tx, request.body, deps.clock.now()));
      return reply.code(201).send(account);
    },
  );
}
