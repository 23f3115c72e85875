import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { getAccountWithSettings } from '../../../domain/accounts/account-settings.js';
import { createAccount, listAccounts } from '../../../domain/accounts/accounts.js';
import { createWarehouse, listWarehousesOfAccount } from '../../../domain/accounts/warehouses.js';
import { listPendingInvitations } from '../../../domain/users/user-admin.js';
import { createSellerUser, listSellerUsers } from '../../../domain/users/users.js';
import { CreateAccountBody } from '../../admin/create-account.js';
import { CreateWarehouseBody } from '../../admin/create-warehouse.js';
import { CreateUserBody } from '../../admin/users/create-user.js';
import { Field, PostForm, Table, formAction } from '../components.js';
import { readForm } from '../form-check.js';
import { Layout } from '../layout.js';
import { idParam } from '../params.js';
import { pageContext, sendHtml } from '../render.js';
import { operatorOf } from '../session.js';
import { AccountSettingsForm, registerOperatorAccountSettings } from './account-settings.js';
import { AccountUsersSection, registerOperatorAccountUsers } from './account-users.js';
import { ROLE_WORDS } from './words.js';

/**
 * Seller accounts: list and create; an account's settings, warehouses and seller users. The same domain functions
 * as POST /admin/accounts, PATCH /admin/accounts/{id}, /admin/accounts/{id}/warehouses and /admin/accounts/{id}/users.
 */
export function registerOperatorAccounts(scope: FastifyInstance, deps: Deps): void {
  const ACTIVE = '/console/operator/accounts';

  scope.get('/operator/accounts', { schema: { hide: true } }, async (request, reply) => {
    const user = operatorOf(request, reply);
    if (!user) return reply;
    const accounts = await listAccounts(deps.db.db);
    const ctx = pageContext(request, reply, user, ACTIVE);
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Accounts">
        <h1>Seller accounts</h1>
        {accounts.length === 0 ? (
          <p class="empty">
            No seller accounts yet. Create the first one below, then its warehouses and users; <code>npm run cli -- sandbox</code> creates a sandbox account with
            sample data.
          </p>
        ) : (
          <Table caption="Seller accounts" head={['Id', 'Name']}>
            {accounts.map((a) => (
              <tr>
                <td safe>{String(a.accountId)}</td>
                <td>
                  <a href={`${ACTIVE}/${a.accountId}`} safe>
                    {a.name}
                  </a>
                </td>
              </tr>
            ))}
          </Table>
        )}
        <h2>New account</h2>
        <PostForm action={ACTIVE} csrfToken={ctx.csrfToken} class="stack">
          <Field label="Seller name" name="name" required />
          <button type="submit">Create account</button>
        </PostForm>
      </Layout>,
    );
  });

  scope.post('/operator/accounts', { schema: { hide: true } }, async (request, reply) => {
    if (!operatorOf(request, reply)) return reply;
    return formAction(deps, request, reply, ACTIVE, 'Account created.', async () => {
      const input = readForm(CreateAccountBody, request.body);
      const account = await withTx(deps.db.db, (tx) => createAccount(tx, input, deps.clock.now()));
      return `Account ${account.name} created (id ${account.accountId}).`;
    });
  });

  scope.get('/operator/accounts/:accountId', { schema: { hide: true } }, async (request, reply) => {
    const user = operatorOf(request, reply);
    if (!user) return reply;
    const accountId = idParam(request, 'accountId');
    const account = await getAccountWithSettings(deps.db.db, accountId);
    const warehouses = await listWarehousesOfAccount(deps.db.db, accountId);
    const users = await listSellerUsers(deps.db.db, accountId);
    const invitations = await listPendingInvitations(deps.db.db, accountId, deps.clock.now());
    const ctx = pageContext(request, reply, user, ACTIVE);
    const base = `${ACTIVE}/${accountId}`;
    return sendHtml(
      reply,
      <Layout ctx={ctx} title={account.name}>
        <p>
          <a href={ACTIVE}>← Accounts</a>
        </p>
        <h1 safe>{account.name}</h1>
        <p class="muted" safe>{`Account id ${accountId}`}</p>

        <h2>Settings</h2>
        <AccountSettingsForm account={account} action={`${base}/settings`} csrfToken={ctx.csrfToken} now={deps.clock.now()} />

        <h2>Warehouses</h2>
        {warehouses.length === 0 ? (
          <p class="empty">No warehouses yet. Orders need one to be routed to: add the seller's first warehouse below.</p>
        ) : (
          <Table caption="Warehouses" head={['Id', 'Name', 'Channel fulfilled', 'Stock controlled by installation']}>
            {warehouses.map((w) => (
              <tr>
                <td safe>{String(w.warehouseId)}</td>
                <td safe>{w.name}</td>
                <td>{w.channelFulfilled ? 'yes' : 'no'}</td>
                <td safe>{w.controlledByInstallationId === null ? '–' : String(w.controlledByInstallationId)}</td>
              </tr>
            ))}
          </Table>
        )}
        <PostForm action={`${base}/warehouses`} csrfToken={ctx.csrfToken}>
          <Field label="Warehouse name" name="name" required />
          <label>
            <span>Channel fulfilled</span>
            <input type="checkbox" name="channelFulfilled" value="true" />
          </label>
          <button type="submit">Add warehouse</button>
        </PostForm>

        <AccountUsersSection base={base} users={users} invitations={invitations} csrfToken={ctx.csrfToken} />
      </Layout>,
    );
  });

  registerOperatorAccountSettings(scope, deps, ACTIVE);
  registerOperatorAccountUsers(scope, deps, ACTIVE);

  scope.post('/operator/accounts/:accountId/warehouses', { schema: { hide: true } }, async (request, reply) => {
    if (!operatorOf(request, reply)) return reply;
    const accountId = idParam(request, 'accountId');
    return formAction(deps, request, reply, `${ACTIVE}/${accountId}`, 'Warehouse created.', async () => {
      const input = readForm(CreateWarehouseBody, request.body);
      const warehouse = await withTx(deps.db.db, (tx) => createWarehouse(tx, accountId, input, deps.clock.now()));
      return `Warehouse ${warehouse.name} created (id ${warehouse.warehouseId}).`;
    });
  });

  scope.post('/operator/accounts/:accountId/users', { schema: { hide: true } }, async (request, reply) => {
    if (!operatorOf(request, reply)) return reply;
    const accountId = idParam(request, 'accountId');
    return formAction(deps, request, reply, `${ACTIVE}/${accountId}`, 'User created.', async () => {
      const input = readForm(CreateUserBody, request.body);
      const created = await createSellerUser(deps.db.db, accountId, input, deps.clock.now());
      return `User ${created.email} created as ${ROLE_WORDS[created.role].toLowerCase()}.`;
    });
  });
}
