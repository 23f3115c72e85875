import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { seedDeadDelivery, seedDeadJob } from '../helpers/console-ops.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock } from './v1-sales-orders-helpers.js';

const PASSWORD = 'correct horse battery';
const OPERATOR = 'ops@platform.example';
const OWNER = 'owner@overview.example';

/** The cards of the overview: label → the figure's text. */
function figures(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<section class="card figure[^"]*"><h2>([^<]+)<\/h2><(?:a|span) class="count"(?: href="[^"]*")?>([^<]+)</g)) out[m[1]!] = m[2]!;
  return out;
}

describe('console: the operator overview, empty states, job types, operators, users and invitations', () => {
  const clock = manualClock(new Date('2026-11-23T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;

  const signedIn = async (email: string): Promise<ConsoleBrowser> => {
    const b = consoleBrowser(t);
    const res = await b.signIn(email, PASSWORD);
    assert.equal(res.statusCode, 303, res.body);
    return b;
  };

  before(async () => {
    t = await createTestApp({ clock });
    assert.equal((await admin(t, 'POST', '/admin/operators', { email: OPERATOR, password: PASSWORD })).statusCode, 201);
  });
  after(() => t.close());

  it('says why each list is empty on a new service', async () => {
    const b = await signedIn(OPERATOR);
    const home = await b.get('/console/operator');
    assert.equal(home.statusCode, 200);
    assert.match(home.body, /No seller accounts yet/);
    assert.match(home.body, /No orders in the last 7 days/);
    assert.doesNotMatch(home.body, /orders? in the last 7 days:/);
    assert.deepEqual(figures(home.body)['Seller accounts'], '0');
    assert.match((await b.get('/console/operator/accounts')).body, /No seller accounts yet/);
    assert.match((await b.get('/console/operator/apps')).body, /No partner apps registered yet/);
    const deliveries = await b.get('/console/operator/deliveries');
    assert.match(deliveries.body, /<p class="empty">No callbacks sent yet/);
    assert.doesNotMatch(deliveries.body, /<table/);
    assert.match((await b.get('/console/operator/deliveries?state=DEAD')).body, /No callback has given up/);
    assert.match((await b.get('/console/operator/jobs?status=DEAD')).body, /<p class="empty">No dead jobs/);
    assert.match((await b.get('/console/operator/jobs?status=RUNNING&type=report.run')).body, /No jobs with status &#34;Running&#34; and type &#34;Report&#34;/);
  });

  it('shows real figures: accounts, orders per day, the job queue, dead jobs and deliveries, database size', async () => {
    seed = await seedAccount(t, 'Overview Shop');
    await stock(t, seed.sellerToken, 'OV-1', seed.warehouses.main, 50);
    for (const [id, ts] of [
      ['OV-A', '2026-11-23T08:00:00Z'],
      ['OV-B', '2026-11-23T00:30:00Z'],
      ['OV-C', '2026-11-21T23:59:00Z'],
      ['OV-OLD', '2026-11-10T12:00:00Z'],
    ] as const) {
      await createOrder(t, seed.channel.token, orderBody(id, [{ requestedSku: 'OV-1', quantity: 1, unitPrice: 3 }], { orderTs: ts }));
    }
    await seedDeadJob(t.deps, seed.accountId);
    await seedDeadDelivery(t.deps, seed.accountId, seed.channel.appId);
    // A job due 20 minutes ago that no worker took yet, and one scheduled for tomorrow.
    const at = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();
    const job = (runAt: string) => ({ type: 'report.run', payload: '{}', status: 'PENDING', attempts: 0, max_attempts: 3, run_at: runAt, created_at: runAt, updated_at: runAt, finished_at: null, account_id: seed.accountId, dedupe_key: null, lease_owner: null, lease_expires_at: null, last_error: null });
    await t.deps.db.db.insertInto('jobs').values([job(at(-20 * 60_000)), job(at(86_400_000))]).execute();

    const b = await signedIn(OPERATOR);
    const home = await b.get('/console/operator');
    assert.equal(home.statusCode, 200, home.body);
    const f = figures(home.body);
    assert.equal(f['Seller accounts'], '1');
    assert.equal(f['Dead jobs'], '1');
    assert.equal(f['Dead callback deliveries'], '1');
    assert.ok(Number(f['Jobs waiting']) >= 1, home.body);
    assert.match(home.body, /Oldest waiting 20 min/);
    assert.match(home.body, /[1-9]\d* scheduled for later/);
    assert.match(f['Database size'] ?? '', /^\d+(\.\d)? (KB|MB|GB)$/);
    assert.match(home.body, t.deps.db.dialect === 'sqlite' ? /SQLite, in memory|SQLite file/ : /PostgreSQL (schema|database)/);
    // Each figure links to its list.
    assert.match(home.body, /href="\/console\/operator\/jobs\?status=DEAD">1</);
    assert.match(home.body, /href="\/console\/operator\/deliveries\?state=DEAD">1</);
    assert.match(home.body, /href="\/console\/operator\/accounts">1</);
    // Orders per day: today 2, Saturday 1, the older order outside the window; newest day first.
    const rows = [...home.body.matchAll(/<tr><td>([A-Z][a-z]{2}, [A-Z][a-z]{2} \d+)<\/td><td class="num">([\d,+]+)<\/td><\/tr>/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(rows, [
      ['Mon, Nov 23', '2'],
      ['Sun, Nov 22', '0'],
      ['Sat, Nov 21', '1'],
      ['Fri, Nov 20', '0'],
      ['Thu, Nov 19', '0'],
      ['Wed, Nov 18', '0'],
      ['Tue, Nov 17', '0'],
    ]);
    assert.match(home.body, /3 orders in the last 7 days/);
  });

  it('filters jobs by a type picked from the service\'s job types, in words', async () => {
    const b = await signedIn(OPERATOR);
    const page = await b.get('/console/operator/jobs');
    const select = /<select name="type">([\s\S]*?)<\/select>/.exec(page.body)?.[1] ?? '';
    assert.match(select, /<option value="" selected>All types<\/option>/);
    for (const [type, words] of [
      ['callbacks.deliver', 'Callback delivery'],
      ['report.run', 'Report'],
      ['import-validation.run', 'Import validation'],
      ['jobs.retention-sweep', 'Finished jobs clean-up'],
    ] as const) {
      assert.match(select, new RegExp(`<option value="${type.replace('.', '\\.')}">${words}</option>`));
    }
    assert.doesNotMatch(page.body, /<input[^>]*name="type"/);
    // States in words, not the stored names.
    assert.match(page.body, /<option value="DEAD">Gave up<\/option>/);
    assert.doesNotMatch(page.body, />DEAD</);
    const reports = await b.get('/console/operator/jobs?type=report.run');
    assert.match(reports.body, /<option value="report\.run" selected>Report<\/option>/);
    assert.equal([...reports.body.matchAll(/<td>Report<\/td>/g)].length, 2);
    assert.doesNotMatch(reports.body, /console\.test\.fail/);
    // A type the service no longer runs can still be listed (its old jobs), and stays picked.
    const old = await b.get('/console/operator/jobs?type=console.test.fail');
    assert.match(old.body, /<option value="console\.test\.fail" selected>console\.test\.fail<\/option>/);
    assert.match(old.body, /<td>console\.test\.fail<\/td>/);
    assert.match(old.body, /Gave up/);
    const injected = await b.get('/console/operator/jobs?type=%3Cb%3Ex%3C%2Fb%3E');
    assert.match(injected.body, /No jobs with type &#34;&lt;b>x&lt;\/b>&#34;/);
    // (Inside a quoted attribute value a < is text.)
    assert.doesNotMatch(injected.body.replace(/value="[^"]*"/g, ''), /<b>x<\/b>/);
  });

  it('creates an operator with the API\'s rules, who can then sign in', async () => {
    const b = await signedIn(OPERATOR);
    const list = await b.get('/console/operator/operators');
    assert.equal(list.statusCode, 200);
    assert.match(list.body, /ops@platform\.example \(you\)/);
    let page = await b.submit('/console/operator/operators', { email: 'second-ops@platform.example', password: PASSWORD });
    assert.match(page.body, /Operator second-ops@platform\.example created/);
    assert.match(page.body, /<td>second-ops@platform\.example<\/td>/);
    assert.equal((await consoleBrowser(t).signIn('second-ops@platform.example', PASSWORD)).headers.location, '/console/operator');
    page = await b.submit('/console/operator/operators', { email: 'short@platform.example', password: 'short' });
    assert.match(page.body, /Password: must be at least 10 characters/);
    page = await b.submit('/console/operator/operators', { email: 'not an email', password: PASSWORD });
    assert.match(page.body, /Email: must be an email address/);
    page = await b.submit('/console/operator/operators', { email: 'SECOND-ops@platform.example', password: PASSWORD });
    assert.match(page.body, /already exists/);
    page = await b.submit('/console/operator/operators', { email: '<b>x</b>@platform.example', password: PASSWORD });
    assert.match(page.body, /&lt;b>x&lt;\/b>@platform\.example/);
    assert.doesNotMatch(page.body, /<b>x<\/b>/);
    const operators = await t.deps.db.db.selectFrom('console_users').select('email').where('kind', '=', 'OPERATOR').orderBy('id').execute();
    assert.deepEqual(operators.map((o) => o.email), [OPERATOR, 'second-ops@platform.example', '<b>x</b>@platform.example']);
  });

  it('enables a disabled seller user or operator again', async () => {
    await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: OWNER, password: PASSWORD, role: 'OWNER' });
    await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'staff@overview.example', password: PASSWORD, role: 'STAFF' });
    const owner = await signedIn(OWNER);
    await owner.get('/console/users');
    const staffId = (await t.deps.db.db.selectFrom('console_users').select('id').where('email_key', '=', 'staff@overview.example').executeTakeFirstOrThrow()).id;
    assert.match((await owner.submit(`/console/users/${staffId}/disable`, {})).body, /disabled and signed out/);
    assert.equal((await consoleBrowser(t).signIn('staff@overview.example', PASSWORD)).statusCode, 401);

    const b = await signedIn(OPERATOR);
    const url = `/console/operator/accounts/${seed.accountId}`;
    const detail = await b.get(url);
    const enable = `action="${url}/users/${staffId}/enable"`;
    assert.ok(detail.body.includes(enable), 'an Enable button on the disabled user');
    assert.match(detail.body, /hx-confirm="Let staff@overview\.example sign in again\?"/);
    assert.match(detail.body, /<td data-label="Role">Staff<\/td>/);
    const page = await b.submit(`${url}/users/${staffId}/enable`, {});
    assert.match(page.body, /staff@overview\.example can sign in again/);
    assert.ok(!page.body.includes(enable));
    assert.equal((await consoleBrowser(t).signIn('staff@overview.example', PASSWORD)).statusCode, 303);
    assert.match((await b.submit(`${url}/users/${staffId}/enable`, {})).body, /was not disabled/);
    // Another account's path does not reach the user.
    const other = (await admin(t, 'POST', '/admin/accounts', { name: 'Other' })).json<{ accountId: number }>().accountId;
    assert.match((await b.submit(`/console/operator/accounts/${other}/users/${staffId}/enable`, {})).body, new RegExp(`user ${staffId} not found`));

    // An operator disabled (no page does it yet; the database does) is enabled from the operators page.
    const second = await t.deps.db.db.selectFrom('console_users').select('id').where('email_key', '=', 'second-ops@platform.example').executeTakeFirstOrThrow();
    await t.deps.db.db.updateTable('console_users').set({ disabled_at: clock.now().toISOString() }).where('id', '=', second.id).execute();
    assert.equal((await consoleBrowser(t).signIn('second-ops@platform.example', PASSWORD)).statusCode, 401);
    const ops = await b.get('/console/operator/operators');
    assert.match(ops.body, new RegExp(`action="/console/operator/operators/${second.id}/enable"`));
    assert.match((await b.submit(`/console/operator/operators/${second.id}/enable`, {})).body, /second-ops@platform\.example can sign in again/);
    assert.equal((await consoleBrowser(t).signIn('second-ops@platform.example', PASSWORD)).statusCode, 303);
    // A seller user is not an operator.
    assert.match((await b.submit(`/console/operator/operators/${staffId}/enable`, {})).body, new RegExp(`user ${staffId} not found`));
  });

  it("lists an account's open invitations and revokes one: its link stops working", async () => {
    const owner = await signedIn(OWNER);
    await owner.get('/console/users');
    const invited = await owner.post('/console/users/invite', { email: 'invitee@overview.example', role: 'STAFF' });
    const token = /\/console\/invite\/([A-Za-z0-9_-]+)</.exec(invited.body)?.[1];
    assert.ok(token, invited.body);
    await owner.get('/console/users');
    await owner.post('/console/users/invite', { email: 'keep@overview.example', role: 'OWNER' });

    const b = await signedIn(OPERATOR);
    const url = `/console/operator/accounts/${seed.accountId}`;
    const detail = await b.get(url);
    assert.match(detail.body, /<td>invitee@overview\.example<\/td><td data-label="Role">Staff<\/td>/);
    assert.match(detail.body, /<td>keep@overview\.example<\/td><td data-label="Role">Owner<\/td>/);
    assert.match(detail.body, /2026-11-30 09:00 UTC/);
    const invitationId = (await t.deps.db.db.selectFrom('console_invitations').select('id').where('email_key', '=', 'invitee@overview.example').executeTakeFirstOrThrow()).id;
    const revoke = `${url}/invitations/${invitationId}/revoke`;
    assert.match(detail.body, new RegExp(`action="${revoke}" class="inline" hx-confirm="Revoke the invitation for invitee@overview\\.example\\? Its link stops working\\."`));
    const page = await b.submit(revoke, {});
    assert.match(page.body, /The invitation for invitee@overview\.example is revoked/);
    assert.doesNotMatch(page.body, /<td>invitee@overview\.example<\/td>/);
    assert.match(page.body, /<td>keep@overview\.example<\/td>/);
    assert.equal((await consoleBrowser(t).get(`/console/invite/${token}`)).statusCode, 404);
    assert.match((await b.submit(revoke, {})).body, new RegExp(`invitation ${invitationId} not found`));
    // Another account's path does not reach it; an accepted invitation is a user, not revoked.
    const keepId = (await t.deps.db.db.selectFrom('console_invitations').select('id').where('email_key', '=', 'keep@overview.example').executeTakeFirstOrThrow()).id;
    const other = (await admin(t, 'GET', '/admin/accounts')).json<{ results: { accountId: number }[] }>().results.at(-1)!.accountId;
    assert.match((await b.submit(`/console/operator/accounts/${other}/invitations/${keepId}/revoke`, {})).body, new RegExp(`invitation ${keepId} not found`));
    await t.deps.db.db.updateTable('console_invitations').set({ accepted_at: clock.now().toISOString() }).where('id', '=', keepId).execute();
    assert.match((await b.submit(`${url}/invitations/${keepId}/revoke`, {})).body, /accepted already/);
    assert.match((await b.get(url)).body, /No open invitations/);
  });

  it('refuses the new forms without the CSRF token, and to sellers', async () => {
    const b = await signedIn(OPERATOR);
    await b.get('/console/operator/operators');
    const noToken = await b.post('/console/operator/operators', { email: 'csrf@platform.example', password: PASSWORD }, { csrf: false });
    assert.equal(noToken.statusCode, 403);
    const staffId = (await t.deps.db.db.selectFrom('console_users').select('id').where('email_key', '=', 'staff@overview.example').executeTakeFirstOrThrow()).id;
    assert.equal((await b.post(`/console/operator/accounts/${seed.accountId}/users/${staffId}/enable`, {}, { csrf: false })).statusCode, 403);
    assert.equal((await b.post(`/console/operator/accounts/${seed.accountId}/invitations/1/revoke`, { _csrf: 'forged' })).statusCode, 403);

    const seller = await signedIn(OWNER);
    await seller.get('/console/home');
    for (const url of ['/console/operator/operators', '/console/operator']) assert.equal((await seller.get(url)).headers.location, '/console/home');
    const refused = await seller.post('/console/operator/operators', { email: 'sneaky@platform.example', password: PASSWORD });
    assert.equal(refused.statusCode, 303);
    assert.equal(refused.headers.location, '/console/home');
    const anon = consoleBrowser(t);
    assert.equal((await anon.get('/console/operator/operators')).headers.location, '/console/login?next=%2Fconsole%2Foperator%2Foperators');
    assert.equal(await t.deps.db.db.selectFrom('console_users').select('id').where('email_key', 'in', ['csrf@platform.example', 'sneaky@platform.example']).executeTakeFirst(), undefined);
  });
});
