import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { createVendor, getVendor, listVendors, updateVendor, type VendorRow } from '../../../../domain/inbound/vendors.js';
import { CreateVendorBody, PatchVendorBody } from '../../../admin/vendors/schemas.js';
import { Badge, Field, Pager, PostForm, Table, field, formAction, formatTs } from '../../components.js';
import { checkForm, formInt, formText } from '../../form-check.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { createAction } from '../form-redirect.js';
import { idParam } from '../params.js';
import { InventoryTabs, PAGE_SIZE, queryText } from './nav.js';
import { optional } from './inbound-list.js';

const BASE = '/console/inventory/vendors';

function days(n: number | null): string {
  return n === null ? '–' : `${n} days`;
}

/** The fields a vendor form posts; blank is no value (a new vendor) or cleared (an edit: null, as in the API). */
function vendorFields(body: unknown) {
  const text = (name: string) => formText(field(body, name));
  return {
    name: field(body, 'name'),
    address: text('address'),
    leadTimeDays: formInt(field(body, 'leadTimeDays')),
    paymentWindowDays: formInt(field(body, 'paymentWindowDays')),
    notes: text('notes'),
    contact: text('contact'),
  };
}

/** The details form, empty for a new vendor or filled with the vendor's. */
function VendorFields({ v }: { v: VendorRow | null }) {
  return (
    <>
      <Field label="Name" name="name" value={v?.name} required hint="unique in the account, compared case-insensitively" />
      <Field label="Address" name="address" value={v?.address} />
      <Field label="Lead time (days)" name="leadTimeDays" type="number" min="0" step="1" value={v?.lead_time_days} hint="from order to arrival" />
      <Field label="Payment window (days)" name="paymentWindowDays" type="number" min="0" step="1" value={v?.payment_window_days} />
      <Field label="Contact" name="contact" value={v?.contact} hint="who to call or write to" />
      <label>
        <span>Notes</span>
        <textarea name="notes" rows="3" safe>
          {v?.notes ?? ''}
        </textarea>
      </label>
    </>
  );
}

/**
 * /console/inventory/vendors: the account's vendors (archived ones on request), create, edit, archive and
 * restore — the domain of /admin/accounts/{id}/vendors, checked by its body schemas.
 */
export function registerVendorPages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/inventory/vendors', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const archived = queryText(request.query, 'archived') === '1';
    const afterText = queryText(request.query, 'after');
    const afterId = /^\d{1,10}$/.test(afterText) ? Number(afterText) : null;
    const page = await listVendors(deps.db.db, user.accountId, { includeArchived: archived, afterId, limit: PAGE_SIZE });
    const ctx = pageContext(request, reply, user, '/console/inventory');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Vendors">
        <h1>Vendors</h1>
        <InventoryTabs current={BASE} />
        <form method="get" action={BASE} class="inline">
          <label>
            <span>
              <input type="checkbox" name="archived" value="1" checked={archived} /> Show archived vendors
            </span>
          </label>
          <button type="submit">Filter</button>
        </form>
        <Table caption="Vendors, oldest first" head={['Vendor', 'Lead time', 'Payment window', 'Contact', 'Status', 'Updated']}>
          {page.rows.map((v) => (
            <tr>
              <td>
                <a href={`${BASE}/${v.id}`} safe>
                  {v.name}
                </a>
              </td>
              <td class="num" safe>{days(v.lead_time_days)}</td>
              <td class="num" safe>{days(v.payment_window_days)}</td>
              <td safe>{v.contact ?? ''}</td>
              <td>{v.archived_at === null ? <Badge tone="ok" text="active" /> : <Badge text="archived" />}</td>
              <td safe>{formatTs(v.updated_at, user.settings)}</td>
            </tr>
          ))}
        </Table>
        {page.rows.length === 0 ? <p class="muted">No vendors.</p> : ''}
        <Pager base={BASE} params={{ archived: archived ? '1' : undefined }} cursorName="after" next={page.next === null ? null : String(page.next)} />

        <h2>New vendor</h2>
        <PostForm action={BASE} csrfToken={ctx.csrfToken} class="stack">
          <VendorFields v={null} />
          <button type="submit">Create vendor</button>
        </PostForm>
      </Layout>,
    );
  });

  scope.post('/inventory/vendors', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const f = vendorFields(request.body);
    return createAction(deps, request, reply, BASE, async () => {
      // A blank optional field is left out of the body, as a client leaves it out of POST …/vendors.
      const input = checkForm(CreateVendorBody, {
        name: f.name,
        ...optional('address', f.address),
        ...optional('notes', f.notes),
        ...optional('contact', f.contact),
        ...(f.leadTimeDays === undefined ? {} : { leadTimeDays: f.leadTimeDays }),
        ...(f.paymentWindowDays === undefined ? {} : { paymentWindowDays: f.paymentWindowDays }),
      });
      const row = await withTx(deps.db.db, (tx) => createVendor(tx, user.accountId, input, deps.clock.now()));
      return { message: `Vendor ${row.name} created.`, to: `${BASE}/${row.id}` };
    });
  });

  scope.get('/inventory/vendors/:vendorId', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    // Another account's vendor is not found, as in the API.
    const v = await getVendor(deps.db.db, user.accountId, idParam(request.params, 'vendorId'));
    const url = `${BASE}/${v.id}`;
    const ctx = pageContext(request, reply, user, '/console/inventory');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title={`Vendor ${v.name}`}>
        <h1 safe>{v.name}</h1>
        <InventoryTabs current={BASE} />
        <dl class="facts">
          <dt>Status</dt>
          <dd>{v.archived_at === null ? <Badge tone="ok" text="active" /> : <Badge text={`archived ${formatTs(v.archived_at, user.settings)}`} />}</dd>
          <dt>Created / updated</dt>
          <dd safe>{`${formatTs(v.created_at, user.settings)} / ${formatTs(v.updated_at, user.settings)}`}</dd>
        </dl>
        <h2>Details</h2>
        <PostForm action={url} csrfToken={ctx.csrfToken} class="stack">
          <VendorFields v={v} />
          <button type="submit">Save</button>
        </PostForm>
        {v.archived_at === null ? (
          <>
            <p class="muted">An archived vendor keeps its shipments but takes no new ones and is left out of lists.</p>
            <PostForm action={`${url}/archive`} csrfToken={ctx.csrfToken} confirm="Archive this vendor?">
              <button type="submit" class="danger">
                Archive vendor
              </button>
            </PostForm>
          </>
        ) : (
          <PostForm action={`${url}/restore`} csrfToken={ctx.csrfToken}>
            <button type="submit">Restore vendor</button>
          </PostForm>
        )}
        <p>
          <a href={BASE}>All vendors</a>
        </p>
      </Layout>,
    );
  });

  scope.post('/inventory/vendors/:vendorId', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const id = idParam(request.params, 'vendorId');
    const f = vendorFields(request.body);
    return formAction(deps, request, reply, `${BASE}/${id}`, 'Vendor saved.', async () => {
      // The form shows every field: one left blank clears it, as null does in PATCH …/vendors/{id}.
      const input = checkForm(PatchVendorBody, {
        name: f.name,
        address: f.address ?? null,
        leadTimeDays: f.leadTimeDays ?? null,
        paymentWindowDays: f.paymentWindowDays ?? null,
        notes: f.notes ?? null,
        contact: f.contact ?? null,
      });
      await withTx(deps.db.db, (tx) => updateVendor(tx, user.accountId, id, input, deps.clock.now()));
    });
  });

  for (const [action, archived, ok] of [
    ['archive', true, 'Vendor archived.'],
    ['restore', false, 'Vendor restored.'],
  ] as const) {
    scope.post(`/inventory/vendors/:vendorId/${action}`, { schema: { hide: true } }, async (request, reply) => {
      const user = sellerOf(request, reply);
      if (!user) return reply;
      const id = idParam(request.params, 'vendorId');
      return formAction(deps, request, reply, `${BASE}/${id}`, ok, async () => {
        await withTx(deps.db.db, (tx) => updateVendor(tx, user.accountId, id, checkForm(PatchVendorBody, { archived }), deps.clock.now()));
      });
    });
  }
}
