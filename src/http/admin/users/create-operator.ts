import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../deps.js';
import { createOperatorUser } from '../../../domain/users/users.js';
import type { App } from '../../types.js';
import { ADMIN_ROUTE_CONFIG, TAGS, adminResponses } from '../schemas.js';
import { Email, Password } from './schemas.js';

export const CreateOperatorBody = Type.Object(
  { email: Email, password: Password },
  { additionalProperties: false, examples: [{ email: 'ops@platform.example', password: 'correct horse battery' }] },
);

export function registerCreateOperator(app: App, deps: Deps) {
  app.post(
    '/admin/operators',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Create an operator user (signs in to the operator pages of /console)',
        description: 'An operator signs in to the operator pages of the console with this email and password (at least 10 characters). An email already in use, in any case, is a 409.',
        body: CreateOperatorBody,
        response: adminResponses({ 201: Type.Object({ operatorId: Type.Integer(), email: Type.String() }) }, [400, 401, 409], 'a console user with this email already exists'),
      },
    },
    async (request, reply) => reply.code(201).send(await createOperatorUser(deps.db.db, request.body, deps.clock.now())),
  );
}
