import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { admin, assertV1Error, createAccountVia } from '../helpers/admin.js';

/** Account settings (resolutions §10): GET shows them, PATCH changes them, a bad value changes nothing. */

interface AccountBody {
  accountId: number;
  name: string;
  currencyCode: string;
  timeZone: string;
  personalDataRetentionDays: number | null;
}

describe('operator API: account settings', () => {
  let t: TestApp;
  let accountId: number;
  before(async () => {
    t = await createTestApp();
    accountId = await createAccountVia(t, 'Settings seller');
  });
  after(async () => t.close());

  const read = async (id = accountId): Promise<AccountBody> => {
    const res = await admin(t, 'GET', `/admin/accounts/${id}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as AccountBody;
  };
  const patch = (body: unknown, id = accountId) => admin(t, 'PATCH', `/admin/accounts/${id}`, body);

  it('a new account has the defaults: USD, UTC, 30 days', async () => {
    assert.deepEqual(await read(), { accountId, name: 'Settings seller', currencyCode: 'USD', timeZone: 'UTC', personalDataRetentionDays: 30 });
  });

  it('changes each field on its own; absent fields stay', async () => {
    const id = await createAccountVia(t, 'One at a time');
    let res = await patch({ currencyCode: 'EUR' }, id);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { accountId: id, name: 'One at a time', currencyCode: 'EUR', timeZone: 'UTC', personalDataRetentionDays: 30 });

    res = await patch({ timeZone: 'Europe/Berlin' }, id);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { accountId: id, name: 'One at a time', currencyCode: 'EUR', timeZone: 'Europe/Berlin', personalDataRetentionDays: 30 });

    res = await patch({ personalDataRetentionDays: 3650 }, id);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as AccountBody).personalDataRetentionDays, 3650);

    res = await patch({ personalDataRetentionDays: null }, id);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as AccountBody).personalDataRetentionDays, null, 'null keeps personal data');

    res = await patch({ personalDataRetentionDays: 1 }, id);
    assert.equal((res.json() as AccountBody).personalDataRetentionDays, 1);

    res = await patch({}, id);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), await read(id), 'an empty change answers the account as it is');
    assert.deepEqual(await read(id), { accountId: id, name: 'One at a time', currencyCode: 'EUR', timeZone: 'Europe/Berlin', personalDataRetentionDays: 1 });
    assert.deepEqual(await read(), { accountId, name: 'Settings seller', currencyCode: 'USD', timeZone: 'UTC', personalDataRetentionDays: 30 }, 'other accounts keep theirs');
  });

  it('changes all fields at once, and takes UTC and time zone aliases', async () => {
    const id = await createAccountVia(t, 'All at once');
    let res = await patch({ currencyCode: 'JPY', timeZone: 'Asia/Tokyo', personalDataRetentionDays: 90 }, id);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { accountId: id, name: 'All at once', currencyCode: 'JPY', timeZone: 'Asia/Tokyo', personalDataRetentionDays: 90 });
    for (const timeZone of ['UTC', 'Asia/Kolkata', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5']) {
      res = await patch({ timeZone }, id);
      assert.equal(res.statusCode, 200, `${timeZone}: ${res.body}`);
      assert.equal((await read(id)).timeZone, timeZone);
    }
  });

  it('a bad value is a 400 naming its field, and nothing changes', async () => {
    const id = await createAccountVia(t, 'Refused');
    const before = { currencyCode: 'GBP', timeZone: 'Europe/London', personalDataRetentionDays: 60 };
    assert.equal((await patch(before, id)).statusCode, 200);
    const cases: [unknown, RegExp][] = [
      [{ currencyCode: 'usd' }, /currencyCode: must be an ISO 4217 currency code/],
      [{ currencyCode: 'ABC' }, /currencyCode: must be an ISO 4217/],
      [{ currencyCode: 'EURO' }, /currencyCode/],
      [{ currencyCode: '' }, /currencyCode/],
      [{ currencyCode: 5 }, /currencyCode: must be string/],
      [{ currencyCode: null }, /currencyCode/],
      [{ timeZone: 'Mars/Olympus_Mons' }, /timeZone: must be an IANA time zone name/],
      [{ timeZone: 'europe/berlin' }, /timeZone: must be an IANA time zone name/],
      [{ timeZone: '+01:00' }, /timeZone/],
      [{ timeZone: '' }, /timeZone/],
      [{ timeZone: 'Europe/' + 'x'.repeat(100) }, /timeZone/],
      [{ personalDataRetentionDays: 0 }, /personalDataRetentionDays: must be >= 1/],
      [{ personalDataRetentionDays: 3651 }, /personalDataRetentionDays: must be <= 3650/],
      [{ personalDataRetentionDays: -5 }, /personalDataRetentionDays/],
      [{ personalDataRetentionDays: 1.5 }, /personalDataRetentionDays/],
      [{ personalDataRetentionDays: '30' }, /personalDataRetentionDays/],
      [{ name: 'Renamed' }, /unknown field "name"/],
      [{ currency: 'EUR' }, /unknown field "currency"/],
      // One bad field refuses the good ones beside it.
      [{ currencyCode: 'EUR', timeZone: 'Nowhere/Else' }, /^timeZone: /m],
      [{ currencyCode: 'EUR', personalDataRetentionDays: 0 }, /personalDataRetentionDays/],
    ];
    for (const [body, pattern] of cases) {
      const res = await patch(body, id);
      assertV1Error(res, 400, pattern);
      assert.deepEqual(await read(id), { accountId: id, name: 'Refused', ...before }, `nothing changed after ${JSON.stringify(body)}`);
    }
    // Every bad field is named in one answer.
    const all = assertV1Error(await patch({ currencyCode: 'XYZ', timeZone: 'Nowhere/Else' }, id), 400);
    assert.ok(all.some((m) => m.startsWith('currencyCode: ')) && all.some((m) => m.startsWith('timeZone: ')), all.join('\n'));
  });

  it('an unknown account is a 404, whatever the body', async () => {
    assertV1Error(await admin(t, 'GET', '/admin/accounts/999999'), 404, /account 999999 not found/);
    assertV1Error(await patch({ currencyCode: 'EUR' }, 999999), 404, /account 999999 not found/);
    assertV1Error(await patch({}, 999999), 404);
    assertV1Error(await admin(t, 'PATCH', '/admin/accounts/0', { currencyCode: 'EUR' }), 400, /accountId/);
  });

  it('needs the operator token', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: `/admin/accounts/${accountId}`, payload: { currencyCode: 'EUR' } });
    assertV1Error(res, 401);
    assert.equal((await read()).currencyCode, 'USD');
  });

  it('the list and the create answer keep their shapes', async () => {
    const created = await admin(t, 'POST', '/admin/accounts', { name: 'Shape' });
    assert.deepEqual(Object.keys(created.json() as object).sort(), ['accountId', 'name']);
  });
});
