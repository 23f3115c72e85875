import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JobWorker } from '../../src/jobs/worker.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin, createAccountVia, createWarehouseVia, exchangeCode, tokenAccepted } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { startReceiver } from '../helpers/callback-receiver.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { REDIRECT_URI } from '../helpers/fixtures.js';
import { seedDeadDelivery } from '../helpers/console-ops.js';

const PASSWORD = 'correct horse battery';

interface Installation {
  installationId: number;
  appId: number;
  status: string;
  storefrontId: number | null;
  storefrontName: string | null;
  mappings: { warehouseId: number; warehouseUniqueId: string; controlsStock: boolean }[];
}

describe('console: seller apps (install, warehouse mappings, storefront status, ingestion request, disconnect)', () => {
  const clock = manualClock(new Date('2026-11-23T09:00:00.000Z'));
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let secrets: string[] = [];
  let accountId: number;
  let east: number;
  let west: number;
  let b: ConsoleBrowser;
  const channel = { appId: 0, clientId: '', clientSecret: '' };
  let shippingAppId: number;
  let storefrontId: number;
  let storefrontToken: string;

  const installations = async () => (await admin(t, 'GET', `/admin/accounts/${accountId}/installations`)).json<{ results: Installation[] }>().results;
  /** Follows a Post/Redirect/Get: the page the POST sent the browser to. */
  const follow = async (res: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
    assert.equal(res.statusCode, 303, res.body);
    return b.get(String(res.headers.location));
  };

  before(async () => {
    t = await createTestApp({ clock });
    receiver = await startReceiver({ secrets: () => secrets, now: () => clock.now() });
    accountId = await createAccountVia(t, 'Apps Shop');
    east = await createWarehouseVia(t, accountId, 'East');
    west = await createWarehouseVia(t, accountId, 'West');
    const reg = await admin(t, 'POST', '/admin/apps', {
      name: 'Marketplace',
      contactEmail: 'dev@partner.example',
      redirectUri: REDIRECT_URI,
      kind: 'SALES_CHANNEL',
      scopes: ['listing:self', 'sales:orders:self'],
      callbackBaseUrl: receiver.baseUrl,
    });
    assert.equal(reg.statusCode, 201, reg.body);
    const creds = reg.json<{ appId: number; clientId: string; clientSecret: string; callbackSigningSecret: string }>();
    Object.assign(channel, { appId: creds.appId, clientId: creds.clientId, clientSecret: creds.clientSecret });
    secrets = [creds.callbackSigningSecret];
    const ship = await admin(t, 'POST', '/admin/apps', { name: 'ShipFast', contactEmail: 'dev@ship.example', redirectUri: REDIRECT_URI, kind: 'SHIPPING', scopes: ['sales:orders:fulfillment:self'] });
    shippingAppId = ship.json<{ appId: number }>().appId;
    assert.equal((await admin(t, 'POST', `/admin/accounts/${accountId}/users`, { email: 'owner@apps.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    b = consoleBrowser(t);
    assert.equal((await b.signIn('owner@apps.example', PASSWORD)).statusCode, 303);
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  it('lists the apps a seller may install with their kind and scopes', async () => {
    const page = await b.get('/console/apps');
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /No app is installed yet/);
    assert.match(page.body, /<td>Marketplace<\/td>\s*<td>Sales channel<\/td>\s*<td>listing:self, sales:orders:self<\/td>/);
    assert.match(page.body, /<td>ShipFast<\/td>\s*<td>Shipping<\/td>/);
    assert.ok(page.body.includes(`href="/console/apps/${channel.appId}/install"`));
  });

  it('installs a sales channel from the page: 303 to the partner redirect URI with a code that exchanges for a token', async () => {
    const form = await b.get(`/console/apps/${channel.appId}/install`);
    assert.equal(form.statusCode, 200, form.body);
    assert.match(form.body, /name="storefrontName"/);
    assert.match(form.body, /hx-boost="false"/, 'the install form navigates for real (the answer leaves the site)');
    // Browsers check form-action against the redirect too: the page lets its form go to the partner's origin.
    assert.match(String(form.headers['content-security-policy']), /form-action 'self' https:\/\/partner\.example;/);
    assert.match((await b.get('/console/apps')).body, new RegExp(`href="/console/apps/${channel.appId}/install" hx-boost="false"`), 'a full load brings that CSP');
    const res = await b.post(`/console/apps/${channel.appId}/install`, { storefrontName: 'Main store' });
    assert.equal(res.statusCode, 303, res.body);
    const location = new URL(String(res.headers.location));
    assert.equal(`${location.origin}${location.pathname}`, `${REDIRECT_URI}/`);
    assert.equal(location.searchParams.get('client_id'), channel.clientId);
    const code = location.searchParams.get('code')!;
    assert.ok(code.length > 20);
    const token = await exchangeCode(t, channel.clientId, channel.clientSecret, code);
    assert.equal(token.statusCode, 200, token.body);
    storefrontToken = token.json<{ access_token: string }>().access_token;
    assert.equal(await tokenAccepted(t, storefrontToken), true);
    const [installed] = await installations();
    assert.equal(installed!.storefrontName, 'Main store');
    storefrontId = installed!.storefrontId!;

    const page = await b.get('/console/apps');
    assert.match(page.body, /Storefront \d+: Main store/);
    assert.match(page.body, /1 active, 0 revoked; last issued 2026-11-23 09:00 UTC/);
  });

  it('maps warehouses for a shipping app; a form without a mapping comes back with the reason', async () => {
    const form = await b.get(`/console/apps/${shippingAppId}/install`);
    assert.equal(form.statusCode, 200);
    assert.ok(form.body.includes(`name="uid_${east}"`) && form.body.includes(`name="uid_${west}"`));
    assert.doesNotMatch(form.body, /name="storefrontName"/);

    const refused = await follow(await b.post(`/console/apps/${shippingAppId}/install`, { [`uid_${east}`]: 'EAST-01' }));
    assert.match(refused.body, /class="flash bad"[^>]*>warehouses: a SHIPPING installation needs at least one warehouse mapping/);
    const count = (await installations()).length;

    const res = await t.app.inject({
      method: 'POST',
      url: `/console/apps/${shippingAppId}/install`,
      headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(b.csrf)}&warehouse=${east}&uid_${east}=EAST-01&warehouse=${west}&uid_${west}=WEST-01`,
    });
    assert.equal(res.statusCode, 303, res.body);
    const location = new URL(String(res.headers.location));
    assert.ok(location.searchParams.get('code'));
    const all = await installations();
    assert.equal(all.length, count + 1);
    assert.deepEqual(all.at(-1)!.mappings.map((m) => [m.warehouseId, m.warehouseUniqueId]), [
      [east, 'EAST-01'],
      [west, 'WEST-01'],
    ]);
    const page = await b.get('/console/apps');
    assert.match(page.body, /East → EAST-01/);
    assert.match(page.body, /no token yet/);
  });

  it('checks the storefront status against the partner and shows its checks; a partner failure is a flash', async () => {
    receiver.setRespond((r) =>
      r.url === `/cb/v2/storefront/status/${storefrontId}`
        ? { status: 200, body: JSON.stringify({ checks: [{ name: 'credentials', state: 'CHECK_STATE_PASS', stateShortDescription: 'valid' }, { name: 'feed <b>', state: 'CHECK_STATE_FAIL', details: 'stale' }] }) }
        : { status: 200, body: '{}' },
    );
    const before = await b.get(`/console/apps/storefronts/${storefrontId}`);
    assert.equal(before.statusCode, 200, before.body);
    assert.match(before.body, /Never checked successfully/);
    const page = await follow(await b.post(`/console/apps/storefronts/${storefrontId}/status-check`, {}));
    assert.match(page.body, /Status checked: 2 check\(s\) reported/);
    assert.match(page.body, /<td>credentials<\/td>\s*<td><span class="badge ok">PASS<\/span><\/td>\s*<td>valid<\/td>/);
    assert.ok(page.body.includes('feed &lt;b'), 'partner text is escaped');
    assert.match(page.body, /Checked 2026-11-23 09:00 UTC/);

    receiver.setRespond(() => ({ status: 500, body: '{"code":13,"message":"channel API unanswered","details":[]}' }));
    clock.advance(60_000);
    const failed = await follow(await b.post(`/console/apps/storefronts/${storefrontId}/status-check`, {}));
    assert.equal(failed.statusCode, 200);
    assert.match(failed.body, /class="flash bad"[^>]*>the storefront status check failed \(delivery [^)]+\): HTTP 500: code 13: channel API unanswered/);
    assert.match(failed.body, /Checked 2026-11-23 09:00 UTC/, 'the last good check stays shown');
    receiver.setRespond(() => ({ status: 200, body: '{}' }));
  });

  it('requests ingestion (some SKUs, automatic apply): a delivery the worker sends to the partner', async () => {
    const page = await follow(await b.post(`/console/apps/storefronts/${storefrontId}/ingestion-request`, { skus: 'SKU-1, SKU-2\nSKU-3', autoApply: 'true' }));
    assert.match(page.body, /Ingestion requested \(delivery [0-9a-f-]+\)/);
    const all = await follow(await b.post(`/console/apps/storefronts/${storefrontId}/ingestion-request`, { skus: '' }));
    assert.match(all.body, /Ingestion requested/);
    const deliveries = (await admin(t, 'GET', `/admin/deliveries?accountId=${accountId}`)).json<{ results: { kind: string; state: string }[] }>().results;
    assert.equal(deliveries.filter((d) => d.kind === 'INITIATE_INGESTION' && d.state === 'PENDING').length, 2);
    await new JobWorker(t.deps, { id: 'console-apps-test', schedules: [] }).runUntilIdle();
    const sent = receiver.received.filter((r) => r.url === '/cb/ingestion/initiate');
    assert.deepEqual(
      sent.map((r) => r.json),
      [
        { storefrontId: String(storefrontId), skus: ['SKU-1', 'SKU-2', 'SKU-3'], autoApplyIngestionPlan: true },
        { storefrontId: String(storefrontId), skus: [], autoApplyIngestionPlan: false },
      ],
    );
    assert.ok(sent.every((r) => r.verified));
  });

  it('refuses a POST without the CSRF token (403) and changes nothing', async () => {
    const res = await b.post(`/console/apps/storefronts/${storefrontId}/disconnect`, { confirm: 'yes' }, { csrf: false });
    assert.equal(res.statusCode, 403);
    assert.equal(await tokenAccepted(t, storefrontToken), true);
    const install = await b.post(`/console/apps/${channel.appId}/install`, {}, { csrf: false });
    assert.equal(install.statusCode, 403);
  });

  it('disconnects a storefront only when confirmed: its token then gets 401 and the partner is told', async () => {
    const unconfirmed = await follow(await b.post(`/console/apps/storefronts/${storefrontId}/disconnect`, {}));
    assert.match(unconfirmed.body, /class="flash bad"[^>]*>tick/);
    assert.equal(await tokenAccepted(t, storefrontToken), true);
    const page = await follow(await b.post(`/console/apps/storefronts/${storefrontId}/disconnect`, { confirm: 'yes' }));
    assert.match(page.body, /Storefront disconnected. Its tokens no longer work/);
    assert.match(page.body, /Disconnected 2026-11-23/);
    assert.doesNotMatch(page.body, /Check status now/);
    assert.equal(await tokenAccepted(t, storefrontToken), false);
    await new JobWorker(t.deps, { id: 'console-apps-test', schedules: [] }).runUntilIdle();
    assert.ok(receiver.received.some((r) => r.method === 'DELETE' && r.url === `/cb/v2/storefront/configuration/${storefrontId}`));
    const apps = await b.get('/console/apps');
    assert.match(apps.body, /0 active, 1 revoked/);
    const again = await follow(await b.post(`/console/apps/storefronts/${storefrontId}/disconnect`, { confirm: 'yes' }));
    assert.match(again.body, /class="flash bad"[^>]*>[^<]*disconnected/);
  });

  it("shows another account's storefront, an unknown app or a malformed id as a 404 page", async () => {
    const other = await createAccountVia(t, 'Other');
    const res = await admin(t, 'POST', `/admin/accounts/${other}/installations`, { appId: channel.appId, storefrontName: 'Theirs' });
    const theirs = res.json<{ storefrontId: number }>().storefrontId;
    for (const url of [`/console/apps/storefronts/${theirs}`, '/console/apps/999999/install', '/console/apps/storefronts/abc']) {
      const page = await b.get(url);
      assert.equal(page.statusCode, 404, url);
      assert.match(page.body, /Not found/);
    }
    const post = await b.post(`/console/apps/storefronts/${theirs}/disconnect`, { confirm: 'yes' });
    assert.equal(post.statusCode, 404);
    assert.equal((await admin(t, 'GET', `/admin/accounts/${other}/installations`)).json<{ results: Installation[] }>().results[0]!.status, 'ACTIVE');
  });

  it("lists the account's callbacks, replays a dead one with the same id, and 404s another account's", async () => {
    const dead = await seedDeadDelivery(t.deps, accountId, channel.appId);
    const other = await createAccountVia(t, 'Other callbacks');
    const theirs = await seedDeadDelivery(t.deps, other, channel.appId);
    const page = await b.get('/console/apps/callbacks?state=DEAD');
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(`/console/apps/callbacks/${dead}/replay`));
    assert.ok(!page.body.includes(theirs), "another account's callbacks are not listed");
    assert.match(page.body, /HTTP 500: &lt;oops/, 'the last error is shown, escaped');
    const home = await b.get('/console/home');
    assert.match(home.body, /href="\/console\/apps\/callbacks\?state=DEAD"/);

    assert.equal((await b.post(`/console/apps/callbacks/${theirs}/replay`, {})).statusCode, 404);
    assert.equal((await admin(t, 'GET', `/admin/deliveries/${theirs}`)).json<{ state: string }>().state, 'DEAD');
    assert.equal((await b.post(`/console/apps/callbacks/${dead}/replay`, {}, { csrf: false })).statusCode, 403);
    const replayed = await b.post(`/console/apps/callbacks/${dead}/replay`, {});
    assert.equal(replayed.statusCode, 303);
    const view = (await admin(t, 'GET', `/admin/deliveries/${dead}`)).json<{ state: string; deliveryId: string }>();
    assert.deepEqual([view.state, view.deliveryId], ['PENDING', dead]);
    // Replaying what is already on its way is refused with the domain's reason.
    const again = await follow(await b.post(`/console/apps/callbacks/${dead}/replay`, {}));
    assert.match(again.body, /class="flash bad"[^>]*>[^<]*PENDING already/);
  });
});
