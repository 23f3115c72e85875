import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { admin, assertV1Error } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser } from '../helpers/console.js';

const PASSWORD = 'correct horse battery';

describe('console: users, sign-in, sessions, CSRF, throttling, security headers', () => {
  const clock = manualClock(new Date('2026-11-23T09:00:00.000Z'));
  let t: TestApp;
  let accountId: number;
  let otherAccountId: number;

  before(async () => {
    t = await createTestApp({ clock });
    accountId = (await admin(t, 'POST', '/admin/accounts', { name: 'Console Shop' })).json<{ accountId: number }>().accountId;
    otherAccountId = (await admin(t, 'POST', '/admin/accounts', { name: 'Other Shop' })).json<{ accountId: number }>().accountId;
  });
  after(() => t.close());

  it('the operator creates seller users and operators; bad input, duplicates and unknown accounts are refused', async () => {
    const created = await admin(t, 'POST', `/admin/accounts/${accountId}/users`, { email: 'Owner@Shop.example', password: PASSWORD, role: 'OWNER' });
    assert.equal(created.statusCode, 201, created.body);
    const user = created.json<{ userId: number; email: string; role: string }>();
    assert.equal(user.email, 'Owner@Shop.example');
    assert.equal(user.role, 'OWNER');
    assert.ok(!created.body.includes(PASSWORD) && !created.body.includes('scrypt'));
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/users`, { email: 'owner@shop.EXAMPLE', password: PASSWORD, role: 'STAFF' }), 409, /already exists/);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/users`, { email: 'not-an-email', password: PASSWORD, role: 'STAFF' }), 400, /email/);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/users`, { email: 'a@b.example', password: 'short', role: 'STAFF' }), 400, /password/);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/users`, { email: 'a@b.example', password: PASSWORD, role: 'ADMIN' }), 400, /role/);
    assertV1Error(await admin(t, 'POST', '/admin/accounts/999999/users', { email: 'a@b.example', password: PASSWORD, role: 'STAFF' }), 404);
    const staff = await admin(t, 'POST', `/admin/accounts/${otherAccountId}/users`, { email: 'staff@other.example', password: PASSWORD, role: 'STAFF' });
    assert.equal(staff.statusCode, 201, staff.body);
    const operator = await admin(t, 'POST', '/admin/operators', { email: 'ops@platform.example', password: PASSWORD });
    assert.equal(operator.statusCode, 201, operator.body);
    assert.deepEqual(Object.keys(operator.json()).sort(), ['email', 'operatorId']);
    const list = await admin(t, 'GET', `/admin/accounts/${accountId}/users`);
    assert.deepEqual(list.json<{ results: { email: string }[] }>().results.map((u) => u.email), ['Owner@Shop.example']);
    const stored = await t.deps.db.db.selectFrom('console_users').select('password_hash').where('email_key', '=', 'owner@shop.example').executeTakeFirstOrThrow();
    assert.match(stored.password_hash, /^scrypt\$16384\$8\$1\$/);
  });

  it('serves the sign-in page with the security headers and a CSRF cookie; its assets are local and cacheable', async () => {
    const b = consoleBrowser(t);
    const page = await b.get('/console/login');
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /text\/html/);
    const csp = page.headers['content-security-policy'] as string;
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers['x-frame-options'], 'DENY');
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    const csrfCookie = page.cookies.find((c) => c.name === 'mcs_csrf');
    assert.ok(csrfCookie?.httpOnly);
    assert.equal(csrfCookie?.sameSite, 'Strict');
    assert.ok(b.csrf.length > 20);
    for (const [, src] of page.body.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)) {
      const asset = await b.get(src!);
      assert.equal(asset.statusCode, 200, src);
      assert.match(asset.headers['cache-control'] as string, /immutable/);
    }
    assert.doesNotMatch(page.body, /https?:\/\/(?!www\.w3\.org)/, 'no external URL in the page');
  });

  it('signs a seller in (email in any case) to their home; a signed-out visitor is sent to sign in and back', async () => {
    const b = consoleBrowser(t);
    const away = await b.get('/console/home');
    assert.equal(away.statusCode, 303);
    assert.equal(away.headers.location, '/console/login?next=%2Fconsole%2Fhome');
    const res = await b.signIn('OWNER@shop.example', PASSWORD);
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, '/console/home');
    const session = res.cookies.find((c) => c.name === 'mcs_session');
    assert.ok(session?.httpOnly);
    assert.equal(session?.sameSite, 'Lax');
    const home = await b.get('/console/home');
    assert.equal(home.statusCode, 200);
    assert.match(home.body, /Console Shop/);
    assert.match(home.headers['cache-control'] as string, /no-store/);
    // The operator pages are not a seller's.
    assert.equal((await b.get('/console/operator')).headers.location, '/console/home');
    const stored = await t.deps.db.db.selectFrom('console_sessions').select('token_hash').execute();
    assert.ok(stored.every((s) => s.token_hash !== session!.value), 'only the token hash is stored');
  });

  it('refuses a form without the CSRF token, with a forged one, or from another origin, changing nothing', async () => {
    const b = consoleBrowser(t);
    await b.signIn('owner@shop.example', PASSWORD);
    await b.get('/console/home');
    const before = await t.deps.db.db.selectFrom('console_sessions').select('id').execute();
    assert.equal((await b.post('/console/logout', {}, { csrf: false })).statusCode, 403);
    assert.equal((await b.post('/console/logout', { _csrf: 'forged.token' })).statusCode, 403);
    const other = consoleBrowser(t);
    await other.get('/console/login');
    assert.equal((await b.post('/console/logout', { _csrf: other.csrf })).statusCode, 403, "another browser's token does not fit this cookie");
    assert.equal((await b.post('/console/logout', {}, { headers: { origin: 'https://evil.example' } })).statusCode, 403);
    assert.equal((await t.deps.db.db.selectFrom('console_sessions').select('id').execute()).length, before.length);
    assert.equal((await b.get('/console/home')).statusCode, 200, 'still signed in');
    // The htmx header carries the token as well as the form field.
    const viaHeader = await b.post('/console/logout', {}, { csrf: false, headers: { 'x-csrf-token': b.csrf } });
    assert.equal(viaHeader.statusCode, 303);
    assert.equal((await b.get('/console/home')).statusCode, 303, 'signed out');
  });

  it('answers a wrong password and an unknown email alike, and throttles after 5 failures for one email', async () => {
    const b = consoleBrowser(t);
    const wrong = await b.signIn('owner@shop.example', 'not the password');
    const unknown = await b.signIn('nobody@shop.example', 'not the password');
    assert.equal(wrong.statusCode, 401);
    assert.equal(unknown.statusCode, 401);
    assert.match(wrong.body, /The email or password is not right/);
    assert.equal(wrong.body.replace(/value="[^"]*"/g, ''), unknown.body.replace(/value="[^"]*"/g, ''));
    for (let i = 0; i < 4; i++) assert.equal((await b.signIn('owner@shop.example', 'still wrong')).statusCode, 401);
    const throttled = await b.signIn('owner@shop.example', PASSWORD);
    assert.equal(throttled.statusCode, 429, 'even the right password waits');
    assert.match(throttled.body, /Too many failed sign-ins/);
    assert.ok(Number(throttled.headers['retry-after']) > 0);
    clock.advance(15 * 60_000 + 1000);
    assert.equal((await b.signIn('owner@shop.example', PASSWORD)).statusCode, 303, 'the window passed');
  });

  it('ends a session after 2 idle hours and after 12 hours in all; sign-out everywhere ends every session of the user', async () => {
    const a = consoleBrowser(t);
    await a.signIn('owner@shop.example', PASSWORD);
    clock.advance(2 * 60 * 60_000 + 1000);
    assert.equal((await a.get('/console/home')).statusCode, 303, 'idle too long');

    await a.signIn('owner@shop.example', PASSWORD);
    for (let i = 0; i < 13; i++) {
      clock.advance(60 * 60_000);
      const res = await a.get('/console/home');
      if (i < 11) assert.equal(res.statusCode, 200, `hour ${i + 1}`);
      else assert.equal(res.statusCode, 303, `hour ${i + 1}: past 12 hours`);
    }

    const one = consoleBrowser(t);
    const two = consoleBrowser(t);
    await one.signIn('owner@shop.example', PASSWORD);
    await two.signIn('owner@shop.example', PASSWORD);
    await one.get('/console/home');
    const out = await one.post('/console/logout-everywhere', {});
    assert.equal(out.statusCode, 303);
    assert.equal((await two.get('/console/home')).statusCode, 303, 'the other device is signed out too');
  });

  it('signs an operator in to the operator overview; a seller page sends them there', async () => {
    const b = consoleBrowser(t);
    const res = await b.signIn('ops@platform.example', PASSWORD);
    assert.equal(res.headers.location, '/console/operator');
    const overview = await b.get('/console/operator');
    assert.equal(overview.statusCode, 200);
    assert.match(overview.body, /seller accounts?/);
    assert.equal((await b.get('/console/home')).headers.location, '/console/operator');
  });

  it('keeps sign-in redirects inside the console and renders unknown pages as HTML 404s', async () => {
    const b = consoleBrowser(t);
    await b.get('/console/login');
    const res = await b.post('/console/login', { email: 'owner@shop.example', password: PASSWORD, next: '//evil.example/x' });
    assert.equal(res.headers.location, '/console/home');
    const missing = await b.get('/console/no-such-page');
    assert.equal(missing.statusCode, 404);
    assert.match(missing.headers['content-type'] as string, /text\/html/);
    assert.match(missing.body, /Not found/);
  });
});
