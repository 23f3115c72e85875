import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { MIN_PASSWORD_LENGTH } from '../../../domain/users/passwords.js';
import { enableUser, listOperatorUsers } from '../../../domain/users/user-admin.js';
import { createOperatorUser } from '../../../domain/users/users.js';
import { CreateOperatorBody } from '../../admin/users/create-operator.js';
import { Field, PostForm, Table, formAction, formatTs } from '../components.js';
import { readForm } from '../form-check.js';
import { Layout } from '../layout.js';
import { idParam } from '../params.js';
import { pageContext, sendHtml } from '../render.js';
import { operatorOf } from '../session.js';
import { EnableButton, StatusBadge } from './account-users.js';

const ACTIVE = '/console/operator/operators';

/**
 * Operator users: the list, a new one (the same domain function and rules as POST /admin/operators), and a
 * disabled one enabled again.
 */
export function registerOperatorOperators(scope: FastifyInstance, deps: Deps): void {
  scope.get('/operator/operators', { schema: { hide: true } }, async (request, reply) => {
    const user = operatorOf(request, reply);
    if (!user) return reply;
    const operators = await listOperatorUsers(deps.db.db);
    const ctx = pageContext(request, reply, user, ACTIVE);
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Operators">
        <h1>Operators</h1>
        <p class="muted">People who run the platform: they see these pages, never a seller's.</p>
        <div class="rows-stack">
          <Table caption="Operator users" head={['Email', 'Status', 'Created', '']}>
            {operators.map((o) => (
              <tr>
                <td safe>{o.userId === user.userId ? `${o.email} (you)` : o.email}</td>
                <td>
                  <StatusBadge disabled={o.disabled} />
                </td>
                <td data-label="Created" safe>
                  {formatTs(o.createdAt)}
                </td>
                <td>{o.disabled ? <EnableButton action={`${ACTIVE}/${o.userId}/enable`} email={o.email} csrfToken={ctx.csrfToken} /> : ''}</td>
              </tr>
            ))}
          </Table>
        </div>
        <h2>New operator</h2>
        <PostForm action={ACTIVE} csrfToken={ctx.csrfToken} class="stack">
          <Field label="Email" name="email" type="email" required />
          <Field label="Password" name="password" type="password" required hint={`at least ${MIN_PASSWORD_LENGTH} characters; pass it on privately`} />
          <button type="submit">Create operator</button>
        </PostForm>
      </Layout>,
    );
  });

  scope.post('/operator/operators', { schema: { hide: true } }, async (request, reply) => {
    if (!operatorOf(request, reply)) return reply;
    return formAction(deps, request, reply, ACTIVE, 'Operator created.', async () => {
      const created = await createOperatorUser(deps.db.db, readForm(CreateOperatorBody, request.body), deps.clock.now());
      return `Operator ${created.email} created: they can sign in now.`;
    });
  });

  scope.post('/operator/operators/:userId/enable', { schema: { hide: true } }, async (request, reply) => {
    if (!operatorOf(request, reply)) return reply;
    const userId = idParam(request, 'userId');
    return formAction(deps, request, reply, ACTIVE, 'Operator enabled.', async () => {
      const result = await withTx(deps.db.db, (tx) => enableUser(tx, { userId, accountId: null }, deps.clock.now()));
      return result.wasDisabled ? `${result.email} can sign in again.` : `${result.email} was not disabled.`;
    });
  });
}
