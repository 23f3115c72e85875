import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashSecret } from '../../src/domain/accounts/secrets.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin, registerAppVia } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { seedDeadDelivery, seedDeadJob } from '../helpers/console-ops.js';

const PASSWORD = 'correct horse battery';
const OPERATOR = 'ops@platform.example';
const OWNER = 'owner@shop.example';
const STAFF = 'staff@shop.example';

describe('console: operator pages, seller users and invitations', () => {
  const clock = manualClock(new Date('2026-11-23T09:00:00.000Z'));
  let t: TestApp;
  let accountId: number;

  const signedIn = async (email: string): Promise<ConsoleBrowser> => {
    const b = consoleBrowser(t);
    const res = await b.signIn(email, PASSWORD);
    assert.equal(res.statusCode, 303, res.body);
    return b;
  };
  /** Follows a form's Post/Redirect/Get and returns the page it lands on. */
  const follow = async (b: ConsoleBrowser, res: Awaited<ReturnType<ConsoleBrowser['post']>>) => {
    assert.equal(res.statusCode, 303, res.body);
    const page = await b.get(res.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    return page.body;
  };

  before(async () => {
    t = await createTestApp({ clock });
    accountId = (await admin(t, 'POST', '/admin/accounts', { name: 'Console Shop' })).json<{ accountId: number }>().accountId;
    assert.equal((await admin(t, 'POST', '/admin/operators', { email: OPERATOR, password: PASSWORD })).statusCode, 201);
    assert.equal((await admin(t, 'POST', `/admin/accounts/${accountId}/users`, { email: OWNER, password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    assert.equal((await admin(t, 'POST', `/admin/accounts/${accountId}/users`, { email: STAFF, password: PASSWORD, role: 'STAFF' })).statusCode, 201);
  });
  after(() => t.close());

  it('a seller cannot open or post to operator pages; a visitor is sent to sign in', async () => {
    const anon = consoleBrowser(t);
    assert.equal((await anon.get('/console/operator/jobs')).headers.location, '/console/login?next=%2Fconsole%2Foperator%2Fjobs');
    const seller = await signedIn(OWNER);
    for (const url of ['/console/operator', '/console/operator/accounts', '/console/operator/apps', '/console/operator/jobs', '/console/operator/deliveries']) {
      const res = await seller.get(url);
      assert.equal(res.statusCode, 303, url);
      assert.equal(res.headers.location, '/console/home');
    }
    await seller.get('/console/home');
    const before = (await admin(t, 'GET', '/admin/accounts')).json<{ results: unknown[] }>().results.length;
    assert.equal((await seller.post('/console/operator/accounts', { name: 'Sneaky' })).statusCode, 303);
    assert.equal((await admin(t, 'GET', '/admin/accounts')).json<{ results: unknown[] }>().results.length, before);
  });

  it('the operator creates an account, a warehouse and a seller user from the pages (names escaped)', async () => {
    const b = await signedIn(OPERATOR);
    await b.get('/console/operator/accounts');
    const list = await follow(b, await b.post('/console/operator/accounts', { name: 'Shop <script>alert(1)</script>' }));
    assert.match(list, /Account Shop &lt;script>alert\(1\)&lt;\/script> created/);
    assert.doesNotMatch(list, /<script>alert/);
    const created = (await admin(t, 'GET', '/admin/accounts')).json<{ results: { accountId: number; name: string }[] }>().results.at(-1)!;
    assert.equal(created.name, 'Shop <script>alert(1)</script>');
    const detailUrl = `/console/operator/accounts/${created.accountId}`;
    await b.get(detailUrl);
    let detail = await follow(b, await b.post(`${detailUrl}/warehouses`, { name: 'East', channelFulfilled: 'true' }));
    assert.match(detail, /Warehouse East created/);
    detail = await follow(b, await b.post(`${detailUrl}/users`, { email: 'new@shop.example', password: PASSWORD, role: 'STAFF' }));
    assert.match(detail, /User new@shop.example created as staff/);
    assert.match(detail, /<td>new@shop.example<\/td>/);
    // Refusals come back as a flash with the domain's reason.
    detail = await follow(b, await b.post(`${detailUrl}/users`, { email: 'x@shop.example', password: 'short', role: 'STAFF' }));
    assert.match(detail, /Password: must be at least 10 characters/);
    detail = await follow(b, await b.post(`${detailUrl}/users`, { email: 'x@shop.example', password: PASSWORD, role: 'ADMIN' }));
    assert.match(detail, /Role: must be one of OWNER, STAFF/);
    const warehouses = (await admin(t, 'GET', `/admin/accounts/${created.accountId}/warehouses`)).json<{ results: { name: string; channelFulfilled: boolean }[] }>();
    assert.deepEqual(warehouses.results.map((w) => [w.name, w.channelFulfilled]), [['East', true]]);
    assert.equal((await b.get('/console/operator/accounts/999999')).statusCode, 404);
  });

  it('registers an app and rotates its secrets: each secret is shown once, never on a reload', async () => {
    const b = await signedIn(OPERATOR);
    await b.get('/console/operator/apps');
    const form = new URLSearchParams({ _csrf: b.csrf, name: 'ShipFast', contactEmail: 'dev@shipfast.example', redirectUri: 'https://shipfast.example/cb', kind: 'SHIPPING' });
    form.append('scopes', 'sales:orders:fulfillment:self');
    form.append('scopes', 'report');
    const registered = await t.app.inject({
      method: 'POST',
      url: '/console/operator/apps',
      headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    assert.equal(registered.statusCode, 200, registered.body);
    assert.equal(registered.headers['cache-control'], 'no-store');
    const [clientSecret, signingSecret] = [...registered.body.matchAll(/<code class="secret">([0-9a-f]{64})<\/code>/g)].map((m) => m[1]!);
    assert.ok(clientSecret && signingSecret, registered.body);
    const app = (await t.deps.db.db.selectFrom('apps').selectAll().where('name', '=', 'ShipFast').executeTakeFirstOrThrow());
    assert.equal(app.client_secret_hash, hashSecret(clientSecret));
    assert.deepEqual(JSON.parse(app.scopes), ['sales:orders:fulfillment:self', 'report']);

    const appUrl = `/console/operator/apps/${app.id}`;
    const page = await b.get(appUrl);
    assert.ok(!page.body.includes(clientSecret) && !page.body.includes(signingSecret));
    const rotated = await b.post(`${appUrl}/rotate-secrets`, { overlapSeconds: '60' });
    assert.equal(rotated.statusCode, 200, rotated.body);
    const newSecret = /New client secret<\/dt><dd><code class="secret">([0-9a-f]{64})</.exec(rotated.body)?.[1];
    assert.ok(newSecret && newSecret !== clientSecret, rotated.body);
    const stored = await t.deps.db.db.selectFrom('apps').selectAll().where('id', '=', app.id).executeTakeFirstOrThrow();
    assert.equal(stored.client_secret_hash, hashSecret(newSecret));
    assert.equal(stored.previous_secret_expires_at, new Date(clock.now().getTime() + 60_000).toISOString());
    const reload = await b.get(appUrl);
    assert.equal(reload.statusCode, 200);
    assert.ok(!reload.body.includes(newSecret), 'a reload does not show the secret again');
    assert.equal((await b.get('/console/operator/apps')).body.includes(newSecret), false);
    // A refused overlap changes nothing and says why.
    const bad = await follow(b, await b.post(`${appUrl}/rotate-secrets`, { overlapSeconds: '-5' }));
    assert.match(bad, /Overlap \(seconds\): must be a whole number/);
    assert.equal((await t.deps.db.db.selectFrom('apps').select('client_secret_hash').where('id', '=', app.id).executeTakeFirstOrThrow()).client_secret_hash, hashSecret(newSecret));
  });

  it('subscribes an app to nudges as PATCH /admin/apps does, with the same rules', async () => {
    const b = await signedIn(OPERATOR);
    const { appId } = await registerAppVia(t, 'SHIPPING', ['sales:orders:fulfillment:self'], 'Nudged');
    const url = `/console/operator/apps/${appId}`;
    // The nudges read in words; their API names stay only as the checkboxes' values.
    const form = (await b.get(url)).body;
    assert.match(form, /An order to ship changed \(shipping and 3PL apps\)/);
    assert.doesNotMatch(form, />\s*(FULFILLMENT_ORDER_CHANGED|ORDER_SHIPPED|VARIANT_INVENTORY_CHANGED)\s*</);
    let page = await follow(b, await b.post(`${url}/callbacks`, { eventTypes: 'ORDER_SHIPPED' }));
    const refused = /<p class="flash bad"[^>]*>([^<]*)<\/p>/.exec(page)?.[1] ?? '';
    assert.match(refused, /^Set the callback address first/);
    assert.doesNotMatch(refused, /callbackBaseUrl|eventTypes/);
    page = await follow(b, await b.post(`${url}/callbacks`, { callbackBaseUrl: 'https://shipfast.example/callbacks', eventTypes: 'ORDER_SHIPPED' }));
    assert.match(page, /Callbacks saved/);
    const view = (await admin(t, 'GET', `/admin/apps/${appId}`)).json<{ callbackBaseUrl: string; eventTypes: string[] }>();
    assert.deepEqual([view.callbackBaseUrl, view.eventTypes], ['https://shipfast.example/callbacks', ['ORDER_SHIPPED']]);
  });

  it('lists jobs by status and type and retries a dead job', async () => {
    const jobId = await seedDeadJob(t.deps, accountId);
    const b = await signedIn(OPERATOR);
    const dead = await b.get('/console/operator/jobs?status=DEAD&type=console.test.fail');
    assert.equal(dead.statusCode, 200);
    assert.match(dead.body, new RegExp(`href="/console/operator/jobs/${jobId}"`));
    assert.match(dead.body, /carrier API said &lt;no>/);
    assert.equal((await b.get('/console/operator/jobs?status=SUCCEEDED&type=console.test.fail')).body.includes(`/console/operator/jobs/${jobId}"`), false);
    const detail = await b.get(`/console/operator/jobs/${jobId}`);
    assert.match(detail.body, /&lt;b>carrier&lt;\/b>/);
    const page = await follow(b, await b.post(`/console/operator/jobs/${jobId}/retry`, {}));
    assert.match(page, /waiting again/);
    const job = (await admin(t, 'GET', `/admin/jobs/${jobId}`)).json<{ status: string; attempts: number }>();
    assert.deepEqual([job.status, job.attempts], ['PENDING', 0]);
    // (Nothing runs it here; a job that is not DEAD is refused with the domain's reason.)
    await t.deps.db.db.updateTable('jobs').set({ status: 'SUCCEEDED' }).where('id', '=', jobId).execute();
    const again = await follow(b, await b.post(`/console/operator/jobs/${jobId}/retry`, {}));
    assert.match(again, /This job is done, so there is nothing to retry: only a job that gave up can be run again\./);
  });

  it('pages through jobs with a keyset link', async () => {
    for (let i = 0; i < 3; i++) await seedDeadJob(t.deps);
    const b = await signedIn(OPERATOR);
    // 50 per page: make sure there are more than 50 rows in all.
    const now = clock.now().toISOString();
    const rows = Array.from({ length: 55 }, (_, i) => ({ type: 'console.test.bulk', payload: JSON.stringify({ i }), status: 'SUCCEEDED', attempts: 1, max_attempts: 1, run_at: now, created_at: now, updated_at: now, finished_at: now, account_id: null, dedupe_key: null, lease_owner: null, lease_expires_at: null, last_error: null }));
    await t.deps.db.db.insertInto('jobs').values(rows).execute();
    const first = await b.get('/console/operator/jobs?type=console.test.bulk');
    const next = /href="(\/console\/operator\/jobs\?type=console.test.bulk&(?:amp;)?after=\d+)"/.exec(first.body)?.[1];
    assert.ok(next, first.body.slice(-600));
    assert.ok(next, 'a next-page link with the filter');
    const second = await b.get(next.replace(/&amp;/g, '&'));
    assert.equal([...second.body.matchAll(/<td>console.test.bulk<\/td>/g)].length, 5);
    assert.match(second.body, /End of the list/);
  });

  it('shows a dead delivery with its filters and detail, and replays it', async () => {
    const { appId } = await registerAppVia(t, 'SALES_CHANNEL', ['listing:self'], 'Channel <i>');
    const deliveryId = await seedDeadDelivery(t.deps, accountId, appId);
    const b = await signedIn(OPERATOR);
    const list = await b.get(`/console/operator/deliveries?appId=${appId}&state=DEAD&kind=INITIATE_INGESTION`);
    assert.equal(list.statusCode, 200);
    assert.match(list.body, new RegExp(`/console/operator/deliveries/${deliveryId}"`));
    assert.match(list.body, /Channel &lt;i>/);
    assert.equal((await b.get(`/console/operator/deliveries?appId=${appId}&state=SUCCEEDED`)).body.includes(deliveryId), false);
    const detail = await b.get(`/console/operator/deliveries/${deliveryId}`);
    assert.match(detail.body, /HTTP 500: &lt;oops>/);
    const page = await follow(b, await b.post(`/console/operator/deliveries/${deliveryId}/replay`, {}));
    assert.match(page, /queued again/);
    assert.equal((await admin(t, 'GET', `/admin/deliveries/${deliveryId}`)).json<{ state: string }>().state, 'PENDING');
    assert.match(await follow(b, await b.post(`/console/operator/deliveries/${deliveryId}/replay`, {})), /PENDING already/);
    assert.equal((await b.get('/console/operator/deliveries/not-a-uuid')).statusCode, 404);
  });

  it('staff see the users but cannot invite (403) or disable anyone', async () => {
    const staff = await signedIn(STAFF);
    const page = await staff.get('/console/users');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /owner@shop.example/);
    assert.doesNotMatch(page.body, /action="\/console\/users\/invite"/);
    const refused = await staff.post('/console/users/invite', { email: 'friend@shop.example', role: 'OWNER' });
    assert.equal(refused.statusCode, 403);
    assert.equal((await t.deps.db.db.selectFrom('console_invitations').selectAll().execute()).length, 0);
    const owner = (await t.deps.db.db.selectFrom('console_users').select('id').where('email_key', '=', OWNER).executeTakeFirstOrThrow()).id;
    assert.equal((await staff.post(`/console/users/${owner}/disable`, {})).statusCode, 403);
  });

  it('an owner invites a user: the link is shown once, works once, and creates the user signed in', async () => {
    const owner = await signedIn(OWNER);
    const page = await owner.get('/console/users');
    assert.match(page.body, /action="\/console\/users\/invite"/);
    const res = await owner.post('/console/users/invite', { email: 'Friend@Shop.example', role: 'STAFF' });
    assert.equal(res.statusCode, 200, res.body);
    const link = /(http:\/\/[^<]+\/console\/invite\/([A-Za-z0-9_-]+))</.exec(res.body);
    assert.ok(link, res.body);
    const token = link[2]!;
    const stored = await t.deps.db.db.selectFrom('console_invitations').selectAll().executeTakeFirstOrThrow();
    assert.equal(stored.token_hash, sha256Hex(token));
    assert.equal(stored.expires_at, '2026-11-30T09:00:00.000Z');
    assert.ok(!(await owner.get('/console/users')).body.includes(token), 'not shown again');

    const invitee = consoleBrowser(t);
    const form = await invitee.get(`/console/invite/${token}`);
    assert.equal(form.statusCode, 200, form.body);
    assert.match(form.body, /Console Shop as staff, signing in as Friend@Shop.example/);
    const short = await invitee.post(`/console/invite/${token}`, { password: 'short' });
    assert.equal(short.statusCode, 400);
    assert.match(short.body, /at least 10 characters/);
    const accepted = await invitee.post(`/console/invite/${token}`, { password: PASSWORD });
    assert.equal(accepted.statusCode, 303, accepted.body);
    assert.equal(accepted.headers.location, '/console/home');
    const home = await invitee.get('/console/home');
    assert.match(home.body, /Friend@Shop.example \(staff\)/);
    const user = await t.deps.db.db.selectFrom('console_users').selectAll().where('email_key', '=', 'friend@shop.example').executeTakeFirstOrThrow();
    assert.deepEqual([user.account_id, user.role, user.kind], [accountId, 'STAFF', 'SELLER']);

    const again = consoleBrowser(t);
    assert.equal((await again.get(`/console/invite/${token}`)).statusCode, 404);
    await again.get('/console/login');
    assert.equal((await again.post(`/console/invite/${token}`, { password: 'another long password' })).statusCode, 404);
    // Inviting an email that already has a user is refused with the reason.
    const dup = await follow(owner, await owner.post('/console/users/invite', { email: 'friend@shop.example', role: 'STAFF' }));
    assert.match(dup, /friend@shop\.example already has a console user/);
  });

  it('an expired invitation is refused', async () => {
    const owner = await signedIn(OWNER);
    await owner.get('/console/users');
    const res = await owner.post('/console/users/invite', { email: 'late@shop.example', role: 'OWNER' });
    const token = /\/console\/invite\/([A-Za-z0-9_-]+)</.exec(res.body)![1]!;
    clock.advance(7 * 24 * 60 * 60_000 + 1000);
    const invitee = consoleBrowser(t);
    assert.equal((await invitee.get(`/console/invite/${token}`)).statusCode, 404);
    await invitee.get('/console/login');
    assert.equal((await invitee.post(`/console/invite/${token}`, { password: PASSWORD })).statusCode, 404);
    assert.equal(await t.deps.db.db.selectFrom('console_users').select('id').where('email_key', '=', 'late@shop.example').executeTakeFirst(), undefined);
  });

  it('an owner disables a staff user: their session ends and they cannot sign in', async () => {
    const staff = await signedIn(STAFF);
    assert.equal((await staff.get('/console/home')).statusCode, 200);
    const owner = await signedIn(OWNER);
    await owner.get('/console/users');
    const staffId = (await t.deps.db.db.selectFrom('console_users').select('id').where('email_key', '=', STAFF).executeTakeFirstOrThrow()).id;
    const page = await follow(owner, await owner.post(`/console/users/${staffId}/disable`, {}));
    assert.match(page, /disabled and signed out/);
    assert.equal((await staff.get('/console/home')).statusCode, 303);
    assert.equal((await consoleBrowser(t).signIn(STAFF, PASSWORD)).statusCode, 401);
    const ownerId = (await t.deps.db.db.selectFrom('console_users').select('id').where('email_key', '=', OWNER).executeTakeFirstOrThrow()).id;
    assert.match(await follow(owner, await owner.post(`/console/users/${ownerId}/disable`, {})), /only a staff user can be disabled/);
  });
});
