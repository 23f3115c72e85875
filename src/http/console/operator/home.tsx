import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { listAccounts } from '../../../domain/accounts/accounts.js';
import { Layout } from '../layout.js';
import { pageContext, sendHtml } from '../render.js';
import { operatorOf } from '../session.js';

export function registerOperatorHome(scope: FastifyInstance, deps: Deps): void {
  scope.get('/operator', { schema: { hide: true } }, async (request, reply) => {
    const user = operatorOf(request, reply);
    if (!user) return reply;
    const accounts = await listAccounts(deps.db.db);
    const ctx = pageContext(request, reply, user, '/console/operator');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Overview">
        <h1>Platform overview</h1>
        <p safe>{`${accounts.length} seller account${accounts.length === 1 ? '' : 's'}.`}</p>
      </Layout>,
    );
  });
}
