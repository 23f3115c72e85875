import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { getAccount } from '../../../domain/accounts/accounts.js';
import { Layout } from '../layout.js';
import { pageContext, sendHtml } from '../render.js';
import { sellerOf } from '../session.js';

export function registerSellerHome(scope: FastifyInstance, deps: Deps): void {
  scope.get('/home', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const account = await getAccount(deps.db.db, user.accountId);
    const ctx = pageContext(request, reply, user, '/console/home');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Home">
        <h1 safe>{account.name}</h1>
        <p class="muted">What needs your attention.</p>
      </Layout>,
    );
  });
}
