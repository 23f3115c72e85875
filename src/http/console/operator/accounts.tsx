import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { getAccountWithSettings } from '../../../domain/accounts/account-settings.js';
import { createAccount, listAccounts } from '../../../domain/accounts/accounts.js';
import { createWarehouse, listWarehousesOfAccount } from '../../../domain/accounts/warehouses.js';
import { invalidField } from '../../../domain/errors.js';
import { SELLER_ROLES, createSellerUser, listSellerUsers, type SellerRole } from '../../../domain/users/users.js';
import { MIN_PASSWORD_LENGTH } from '../../../domain/users/passwords.js';
import { Badge, Field, PostForm, Select, Table, field, formAction, formatTs } from '../components.js';
import { Layout } from '../layout.js';
import { idParam } from '../params.js';
import { pageContext, sendHtml } from '../render.js';
import { operatorOf } from '../session.js';
import { AccountSettingsForm, registerOperatorAccountSettings } from './account-settings.js';

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
      const account = await withTx(deps.db.db, (tx) => createAccount(tx, { name: field(request.body, 'name') }, deps.clock.now()));
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
        <PostForm action={`${base}/warehouses`} csrfToken={ctx.csrfToken}>
          <Field label="Warehouse name" name="name" required />
          <label>
            <span>Channel fulfilled</span>
            <input type="checkbox" name="channelFulfilled" value="true" />
          </label>
          <button type="submit">Add warehouse</button>
        </PostForm>

        <h2>Seller users</h2>
        <Table caption="Seller users" head={['Email', 'Role', 'Status', 'Created']}>
          {users.map((u) => (
            <tr>
              <td safe>{u.email}</td>
              <td>{u.role}</td>
              <td>{u.disabled ? <Badge tone="bad" text="disabled" /> : <Badge tone="ok" text="active" />}</td>
              <td safe>{formatTs(u.createdAt)}</td>
            </tr>
          ))}
        </Table>
        <PostForm action={`${base}/users`} csrfToken={ctx.csrfToken} class="stack">
          <Field label="Email" name="email" type="email" required />
          <Field label="Password" name="password" type="password" required hint={`at least ${MIN_PASSWORD_LENGTH} characters; pass it on privately`} />
          <Select label="Role" name="role" options={SELLER_ROLES} value="STAFF" />
          <button type="submit">Create user</button>
        </PostForm>
      </Layout>,
    );
  });

  registerOperatorAccountSettings(scope, deps, ACTIVE);

  scope.post('/operator/accounts/:accountId/warehouses', { schema: { hide: true } }, async (request, reply) => {
    if (!operatorOf(request, reply)) return reply;
    const accountId = idParam(request, 'accountId');
    return formAction(deps, request, reply, `${ACTIVE}/${accountId}`, 'Warehouse created.', async () => {
      const input = { name: field(request.body, 'name'), channelFulfilled: field(request.body, 'channelFulfilled') === 'true' };
      const warehouse = await withTx(deps.db.db, (tx) => createWarehouse(tx, accountId, input, deps.clock.now()));
      return `Warehouse ${warehouse.name} created (id ${warehouse.warehouseId}).`;
    });
  });

  scope.post('/operator/accounts/:accountId/users', { schema: { hide: true } }, async (request, reply) => {
    if (!operatorOf(request, reply)) return reply;
    const accountId = idParam(request, 'accountId');
    return formAction(deps, request, reply, `${ACTIVE}/${accountId}`, 'User created.', async () => {
      const role = field(request.body, 'role');
      // The API's schema refuses another role before its handler; this form does the same.
      if (!(SELLER_ROLES as readonly string[]).includes(role)) throw invalidField('role', `must be one of ${SELLER_ROLES.join(', ')}`);
      const input = { email: field(request.body, 'email'), password: field(request.body, 'password'), role: role as SellerRole };
      const created = await createSellerUser(deps.db.db, accountId, input, deps.clock.now());
      return `User ${created.email} created as ${created.role}.`;
    });
  });
}
