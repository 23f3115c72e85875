import type { App } from './types.js';
import { sql } from 'kysely';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../deps.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../db/unavailable.js';

export function registerHealthRoutes(app: App, deps: Deps) {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness: the process is up',
        description: 'Answers 200 whenever the process serves HTTP, without touching the database: a failing liveness check means restart the process. No token needed.',
        response: { 200: Type.Object({ status: Type.Literal('ok') }, { examples: [{ status: 'ok' }] }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness: the database answers',
        description: 'Runs one trivial query: 200 when the database answers, 503 while it does not (take the instance out of rotation; it recovers by itself). No token needed.',
        response: {
          200: Type.Object({ status: Type.Literal('ready'), database: Type.String() }, { examples: [{ status: 'ready', database: 'sqlite' }] }),
          503: Type.Object(
            { status: Type.Literal('unavailable'), database: Type.String() },
            { examples: [{ status: 'unavailable', database: 'postgres' }] },
          ),
        },
      },
    },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(deps.db.db);
        return { status: 'ready' as const, database: deps.db.dialect };
      } catch (error) {
        // Load balancers take this instance out of rotation; the process stays up and recovers by itself.
        request.log.warn({ err: error }, 'readiness check: the database does not answer');
        reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
        return reply.code(503).send({ status: 'unavailable' as const, database: deps.db.dialect });
      }
    },
  );
}
