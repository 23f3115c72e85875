import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { adminHeaders } from '../helpers/admin.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error, createShipment, createVendorVia, inboundCounts, patchVendor, postShipment, shipmentBody } from './v1-inbound-helpers.js';

interface VendorView {
  vendorId: number;
  name: string;
  address: string | null;
  leadTimeDays: number | null;
  paymentWindowDays: number | null;
  notes: string | null;
  contact: string | null;
  archived: boolean;
  createdAt: string;
  updatedAt: string;
}
interface VendorList {
  results: VendorView[];
  nextAfter: number | null;
}

/** The operator's vendor routes (DESIGN.md operator API; document 2.8). */
describe('admin vendors', () => {
  const clock = manualClock(new Date('2026-11-01T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other seller');
  });
  after(async () => t.close());

  const create = (accountId: number, body: unknown, headers: Record<string, string> = adminHeaders) =>
    t.app.inject({ method: 'POST', url: `/admin/accounts/${accountId}/vendors`, headers, payload: body as object });
  const get = (accountId: number, vendorId: number | string) => t.app.inject({ url: `/admin/accounts/${accountId}/vendors/${vendorId}`, headers: adminHeaders });
  const list = (accountId: number, query = '') => t.app.inject({ url: `/admin/accounts/${accountId}/vendors${query}`, headers: adminHeaders });
  const vendorCount = async () => (await inboundCounts(t, seed.accountId)).vendors;

  it('creates a vendor: 201 with the whole view; GET reads it back', async () => {
    clock.advance(1000);
    const res = await create(seed.accountId, {
      name: '  Acme Ceramics ',
      address: '1 Kiln Road, Stoke',
      leadTimeDays: 14,
      paymentWindowDays: 30,
      notes: 'Ring before noon',
      contact: 'orders@acme.example',
    });
    assert.equal(res.statusCode, 201, res.body);
    const view = res.json() as VendorView;
    const now = clock.now().toISOString();
    assert.deepEqual(view, {
      vendorId: view.vendorId,
      name: 'Acme Ceramics',
      address: '1 Kiln Road, Stoke',
      leadTimeDays: 14,
      paymentWindowDays: 30,
      notes: 'Ring before noon',
      contact: 'orders@acme.example',
      archived: false,
      createdAt: now,
      updatedAt: now,
    });
    assert.equal(typeof view.vendorId, 'number');
    assert.deepEqual((await get(seed.accountId, view.vendorId)).json(), view);
  });

  it('only the name is required; blank optional text is stored as null; 0 days is a value', async () => {
    const res = await create(seed.accountId, { name: 'Bare', address: '   ', notes: '', contact: null, leadTimeDays: 0, paymentWindowDays: null });
    assert.equal(res.statusCode, 201, res.body);
    const view = res.json() as VendorView;
    assert.deepEqual([view.address, view.notes, view.contact, view.leadTimeDays, view.paymentWindowDays], [null, null, null, 0, null]);
  });

  it('a name taken in the account, in any case, is a 409; another account may use it', async () => {
    const before = await vendorCount();
    assertV1Error(await create(seed.accountId, { name: 'acme CERAMICS' }), 409, /a vendor named "acme CERAMICS" already exists/);
    assert.equal(await vendorCount(), before);
    assert.equal((await create(other.accountId, { name: 'Acme Ceramics' })).statusCode, 201);
  });

  it('bad bodies are a 400 naming the field, and store nothing', async () => {
    const before = await vendorCount();
    const bad: [unknown, RegExp][] = [
      [{}, /name/],
      [{ name: '' }, /name/],
      [{ name: '   ' }, /name: must not be blank/],
      [{ name: 'x'.repeat(1001) }, /name/],
      [{ name: 7 }, /name/],
      [{ name: 'V', address: 'a'.repeat(1001) }, /address/],
      [{ name: 'V', contact: 'c'.repeat(1001) }, /contact/],
      [{ name: 'V', notes: 'n'.repeat(64 * 1024 + 1) }, /notes/],
      [{ name: 'V', leadTimeDays: -1 }, /leadTimeDays/],
      [{ name: 'V', leadTimeDays: 3651 }, /leadTimeDays/],
      [{ name: 'V', leadTimeDays: 1.5 }, /leadTimeDays/],
      [{ name: 'V', paymentWindowDays: '30' }, /paymentWindowDays/],
      [{ name: 'V', archived: true }, /archived/],
      [{ name: 'V', email: 'x@y' }, /email/],
    ];
    for (const [body, pattern] of bad) assertV1Error(await create(seed.accountId, body), 400, pattern);
    const malformed = await t.app.inject({
      method: 'POST',
      url: `/admin/accounts/${seed.accountId}/vendors`,
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    assertV1Error(malformed, 400, /JSON/);
    assert.equal(await vendorCount(), before);
    // At the limits exactly, it is fine.
    const edge = await create(seed.accountId, { name: 'n'.repeat(1000), notes: 'n'.repeat(64 * 1024), leadTimeDays: 3650 });
    assert.equal(edge.statusCode, 201, edge.body);
  });

  it('without the operator token: 401 on every route', async () => {
    const vendorId = await createVendorVia(t, seed.accountId, { name: 'Guarded' });
    const calls = [
      (h: Record<string, string>) => create(seed.accountId, { name: 'Nope' }, h),
      (h: Record<string, string>) => t.app.inject({ url: `/admin/accounts/${seed.accountId}/vendors`, headers: h }),
      (h: Record<string, string>) => t.app.inject({ url: `/admin/accounts/${seed.accountId}/vendors/${vendorId}`, headers: h }),
      (h: Record<string, string>) => t.app.inject({ method: 'PATCH', url: `/admin/accounts/${seed.accountId}/vendors/${vendorId}`, headers: h, payload: { archived: true } }),
    ];
    for (const call of calls) {
      assertV1Error(await call({}), 401);
      assertV1Error(await call({ authorization: 'Bearer wrong-token' }), 401);
      assertV1Error(await call({ authorization: `Bearer ${seed.sellerToken}` }), 401);
    }
    assert.equal(((await get(seed.accountId, vendorId)).json() as VendorView).archived, false);
  });

  it('an unknown account is 404 everywhere; an unknown or another account\'s vendor is 404', async () => {
    const theirs = await createVendorVia(t, other.accountId, { name: 'Only Theirs' });
    assertV1Error(await create(2147483647, { name: 'Nowhere' }), 404, /account 2147483647 not found/);
    assertV1Error(await list(2147483647), 404, /account/);
    assertV1Error(await get(2147483647, theirs), 404);
    assertV1Error(await patchVendor(t, 2147483647, theirs, { notes: 'x' }), 404);
    assertV1Error(await get(seed.accountId, theirs), 404, new RegExp(`vendor ${theirs} not found`));
    assertV1Error(await patchVendor(t, seed.accountId, theirs, { notes: 'hijack' }), 404);
    assertV1Error(await get(seed.accountId, 2147483647), 404);
    assertV1Error(await get(seed.accountId, 'abc'), 400, /vendorId/);
    assert.equal(((await get(other.accountId, theirs)).json() as VendorView).notes, null);
  });

  it('PATCH changes the fields given; null or blank clears; the rest stays; updatedAt moves', async () => {
    const vendorId = await createVendorVia(t, seed.accountId, { name: 'Patchable', address: 'Here', leadTimeDays: 5, notes: 'n', contact: 'c' });
    const before = (await get(seed.accountId, vendorId)).json() as VendorView;
    clock.advance(60_000);
    const res = await patchVendor(t, seed.accountId, vendorId, { leadTimeDays: 7, address: null, notes: '  ', name: 'Patched' });
    assert.equal(res.statusCode, 200, res.body);
    const view = res.json() as VendorView;
    assert.deepEqual(view, {
      ...before,
      name: 'Patched',
      leadTimeDays: 7,
      address: null,
      notes: null,
      updatedAt: clock.now().toISOString(),
    });
    // Renaming to its own name in another case is not a conflict.
    assert.equal((await patchVendor(t, seed.accountId, vendorId, { name: 'PATCHED' })).statusCode, 200);
  });

  it('PATCH: a name taken by another vendor is a 409; bad bodies 400; nothing changes', async () => {
    const vendorId = await createVendorVia(t, seed.accountId, { name: 'Stays Put' });
    const before = (await get(seed.accountId, vendorId)).json() as VendorView;
    assertV1Error(await patchVendor(t, seed.accountId, vendorId, { name: 'ACME ceramics' }), 409, /already exists/);
    const bad: [unknown, RegExp][] = [
      [{}, /body: must NOT have fewer than 1 properties/],
      [{ name: null }, /name/],
      [{ name: ' ' }, /name: must not be blank/],
      [{ leadTimeDays: 4000 }, /leadTimeDays/],
      [{ archived: 'yes' }, /archived/],
      [{ vendorId: 9 }, /vendorId/],
    ];
    for (const [body, pattern] of bad) assertV1Error(await patchVendor(t, seed.accountId, vendorId, body), 400, pattern);
    assert.deepEqual((await get(seed.accountId, vendorId)).json(), before);
  });

  it('archive and restore: an archived vendor is left out of lists and refused by new shipments, by name or by id', async () => {
    const vendorId = await createVendorVia(t, seed.accountId, { name: 'Seasonal Supplier' });
    const used = await createShipment(t, seed.sellerToken, shipmentBody(seed.warehouses.main, 'AV-1', { vendor_name: 'seasonal supplier', create_new_products: true }));
    assert.equal(used.vendor.vendorId, vendorId, 'an operator-made vendor is found by name, case-insensitively');

    const archived = await patchVendor(t, seed.accountId, vendorId, { archived: true });
    assert.equal(archived.statusCode, 200, archived.body);
    assert.equal((archived.json() as VendorView).archived, true);
    const ids = async (query: string) => ((await list(seed.accountId, query)).json() as VendorList).results.map((v) => v.vendorId);
    assert.ok(!(await ids('')).includes(vendorId));
    assert.ok((await ids('?includeArchived=true')).includes(vendorId));

    const before = await inboundCounts(t, seed.accountId);
    assertV1Error(
      await postShipment(t, seed.sellerToken, shipmentBody(seed.warehouses.main, 'AV-1', { vendor_name: 'Seasonal Supplier' })),
      400,
      new RegExp(`vendor_name: vendor "Seasonal Supplier" \\(${vendorId}\\) is archived; restore it`),
    );
    assertV1Error(
      await postShipment(t, seed.sellerToken, shipmentBody(seed.warehouses.main, 'AV-1', { vendor_name: 'Seasonal Supplier', vendor_id: vendorId })),
      400,
      /vendor_id: vendor \d+ \("Seasonal Supplier"\) is archived/,
    );
    assert.deepEqual(await inboundCounts(t, seed.accountId), before);
    // Its shipments still name it.
    const old = await t.app.inject({ url: `/v1/inbound-shipment/${used.id}`, headers: { authorization: seed.sellerToken } });
    assert.equal(old.json().vendor_name, 'Seasonal Supplier');

    const restored = await patchVendor(t, seed.accountId, vendorId, { archived: false });
    assert.equal((restored.json() as VendorView).archived, false);
    await createShipment(t, seed.sellerToken, shipmentBody(seed.warehouses.main, 'AV-1', { vendor_name: 'Seasonal Supplier' }));
  });

  it('lists by id in pages of `limit`, nextAfter null on the last page', async () => {
    const acct = await seedAccount(t, 'Paging');
    const made: number[] = [];
    for (const name of ['V1', 'V2', 'V3', 'V4', 'V5']) made.push(await createVendorVia(t, acct.accountId, { name }));
    await patchVendor(t, acct.accountId, made[2]!, { archived: true });
    const walk = async (extra: string) => {
      const seen: number[] = [];
      let after: number | null = null;
      let pages = 0;
      do {
        const res = await list(acct.accountId, `?limit=2${extra}${after === null ? '' : `&after=${after}`}`);
        assert.equal(res.statusCode, 200, res.body);
        const page = res.json() as VendorList;
        assert.ok(page.results.length <= 2);
        seen.push(...page.results.map((v) => v.vendorId));
        after = page.nextAfter;
        pages++;
      } while (after !== null);
      return { seen, pages };
    };
    assert.deepEqual(await walk(''), { seen: [made[0], made[1], made[3], made[4]], pages: 2 });
    assert.deepEqual(await walk('&includeArchived=true'), { seen: made, pages: 3 });
    const whole = (await list(acct.accountId)).json() as VendorList;
    assert.equal(whole.results.length, 4);
    assert.equal(whole.nextAfter, null);
    assert.deepEqual(whole.results[0], (await get(acct.accountId, made[0]!)).json());
  });

  it('list parameters out of range, or unknown, are a 400', async () => {
    for (const q of ['?limit=0', '?limit=501', '?limit=x', '?after=-1', '?after=x', '?includeArchived=perhaps', '?cursor=abc']) {
      assertV1Error(await list(seed.accountId, q), 400);
    }
  });
});
