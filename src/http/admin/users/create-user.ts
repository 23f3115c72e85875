import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../deps.js';
import { createSellerUser, listSellerUsers } from '../../../domain/users/users.js';
import type { App } from '../../types.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, TAGS, adminResponses } from '../schemas.js';
import { Email, Password, Role, SellerUser } from './schemas.js';

export const CreateUserBody = Type.Object(
  { email: Email, password: Password, role: Role },
  { additionalProperties: false, examples: [{ email: 'owner@shop.example', password: 'correct horse battery', role: 'OWNER' }] },
);

export function registerCreateUser(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/users',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Create a seller user of an account (signs in to /console)',
        description: 'The user signs in to the seller pages of the console for this account only, as OWNER (may invite users) or STAFF. An email already in use, in any case, is a 409; an unknown account a 404.',
        params: AccountParams,
        body: CreateUserBody,
        response: adminResponses({ 201: SellerUser }, [400, 401, 404, 409], 'a console user with this email already exists'),
      },
    },
    async (request, reply) => {
      const user = await createSellerUser(deps.db.db, request.params.accountId, request.body, deps.clock.now());
      return reply.code(201).send(user);
    },
  );
  app.get(
    '/admin/accounts/:accountId/users',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "List an account's seller users",
        description: 'The account\'s seller users, oldest first, with their role and whether they are disabled; never a password or a session.',
        params: AccountParams,
        response: adminResponses({ 200: Type.Object({ results: Type.Array(SellerUser) }) }, [400, 401, 404]),
      },
    },
    async (request) => {
      return { results: await listSellerUsers(deps.db.db, request.params.accountId) };
    },
  );
}
