import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { adminHeaders } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, installAndExchange, seedAccount, type InstalledApp, type SeededAccount } from '../helpers/fixtures.js';
import { assertV2Error, violationFields } from '../helpers/v2.js';

/**
 * Storefront valid values (resolutions §7): POST/GET /v2/storefront/listing/valid_values, and their effect on
 * what the seller may choose (admin listing create and edit) and is offered (admin attribute specs read).
 */

const VV = '/v2/storefront/listing/valid_values';
const SPEC = '/v2/storefront/taxonomy/attribute_spec';

interface OfferedSpec {
  attributeSpecId: string;
  type: string;
  validValues: string[];
  storefrontValidValues: boolean;
}

describe('storefront valid values', () => {
  const clock = manualClock(new Date('2026-06-01T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let shopTwo: InstalledApp;
  let foreign: SeededAccount;
  let listingId = '';

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token = seed.channel.token, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const setValues = (payload: unknown, token = seed.channel.token) => call('POST', VV, token, payload);
  const getValues = (query: string, token = seed.channel.token) => call('GET', `${VV}?${query}`, token);
  const stored = () => t.deps.db.db.selectFrom('storefront_valid_values').selectAll().orderBy('spec_id').execute();
  const offered = async (productTypeId = 'shirt', storefrontId = seed.channel.installationId) => {
    const res = await t.app.inject({
      url: `/admin/accounts/${seed.accountId}/storefronts/${storefrontId}/attribute-specs/${productTypeId}`,
      headers: adminHeaders,
    });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { attributeSpecs: OfferedSpec[] }).attributeSpecs;
  };
  const createListing = (body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: `/admin/accounts/${seed.accountId}/listings`,
      headers: adminHeaders,
      payload: { storefrontId: seed.channel.installationId, ...body },
    });
  const patch = (body: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: `/admin/accounts/${seed.accountId}/listings/${listingId}`, headers: adminHeaders, payload: body });

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    shopTwo = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Two', name: 'eBay' });
    foreign = await seedAccount(t, 'Foreign');
    const put = async (productTypeId: string, spec: Record<string, unknown>, token = seed.channel.token) => {
      const res = await call('PUT', `${SPEC}/${productTypeId}`, token, { attributeSpec: spec });
      assert.equal(res.statusCode, 200, res.body);
    };
    await put('shirt', { attributeSpecId: 'color', type: 'TYPE_SELECT', validValues: ['red', 'blue'] });
    await put('shirt', { attributeSpecId: 'policy', type: 'TYPE_SELECT' });
    await put('shirt', { attributeSpecId: 'features', type: 'TYPE_MULTI_SELECT', validValues: ['soft', 'warm'] });
    await put('shirt', { attributeSpecId: 'title', type: 'TYPE_TEXT' });
    await put('hat', { attributeSpecId: 'color', type: 'TYPE_SELECT', validValues: ['black'] });
    await put('shirt', { attributeSpecId: 'color', type: 'TYPE_SELECT', validValues: ['green'] }, shopTwo.token);
    await put('shirt', { attributeSpecId: 'color', type: 'TYPE_SELECT', validValues: ['green'] }, foreign.channel.token);
    const created = await createListing({
      sku: 'TEE',
      productData: { productTypeId: 'shirt', attributes: [{ id: 'title', textValue: 'Tee' }] },
      variants: [{ sku: 'TEE-1', productData: { attributes: [{ id: 'color', textValue: 'red' }] } }],
    });
    assert.equal(created.statusCode, 201, created.body);
    listingId = (created.json() as { id: string }).id;
  });
  after(async () => t.close());

  it('sets and reads the values of a select spec; account and storefront ids in the body are ignored', async () => {
    // Nothing set yet: the map is empty, whether ids are named or not.
    assert.deepEqual((await getValues('specIds=color')).json(), { specIdToValidValues: {} });
    assert.deepEqual((await getValues('')).json(), { specIdToValidValues: {} });
    const res = await setValues({ specId: 'color', validValues: ['red', 'navy'], accountId: '999', storefront_id: 12345 });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {});
    const color = { specIdToValidValues: { color: { validValues: ['red', 'navy'] } } };
    assert.deepEqual((await getValues('specIds=color')).json(), color);
    assert.deepEqual((await getValues('specId=color')).json(), color, 'specId is an alias');
    assert.deepEqual((await getValues('spec_id=color')).json(), color);
    const rows = await stored();
    assert.deepEqual(
      rows.map((r) => [r.account_id, r.storefront_id, r.spec_id]),
      [[seed.accountId, seed.channel.installationId, 'color']],
    );
    // snake_case names; a multi-select spec; a later set replaces.
    assert.equal((await setValues({ spec_id: 'features', valid_values: ['soft'] })).statusCode, 200);
    assert.equal((await setValues({ specId: 'policy', validValues: ['30 days', 'none'] })).statusCode, 200);
    assert.equal((await setValues({ specId: 'policy', validValues: ['30 days', 'none', '60 days'] })).statusCode, 200);
    const policy = { validValues: ['30 days', 'none', '60 days'] };
    assert.deepEqual((await getValues('specIds=policy')).json(), { specIdToValidValues: { policy } });
    // Several ids, repeated or comma-separated (an id without values is absent); none: every spec with values.
    const three = { specIdToValidValues: { color: { validValues: ['red', 'navy'] }, features: { validValues: ['soft'] }, policy } };
    assert.deepEqual((await getValues('specIds=policy&specIds=color&specIds=features&specIds=nope')).json(), three);
    assert.deepEqual((await getValues('specIds=policy,color,features,nope')).json(), three);
    assert.deepEqual((await getValues('')).json(), three);
  });

  it("replaces the spec's own values in what the seller is offered; the channel's taxonomy read is unchanged", async () => {
    const specs = await offered();
    assert.deepEqual(
      specs.map((s) => [s.attributeSpecId, s.validValues, s.storefrontValidValues]),
      [
        ['color', ['red', 'navy'], true],
        ['features', ['soft'], true],
        ['policy', ['30 days', 'none', '60 days'], true],
        ['title', [], false],
      ],
    );
    // The values apply to every select spec with that id on the storefront's product types.
    assert.deepEqual(
      (await offered('hat')).map((s) => [s.attributeSpecId, s.validValues, s.storefrontValidValues]),
      [['color', ['red', 'navy'], true]],
    );
    // Another storefront of the account is offered its own spec's values.
    assert.deepEqual(
      (await offered('shirt', shopTwo.installationId)).map((s) => [s.attributeSpecId, s.validValues, s.storefrontValidValues]),
      [['color', ['green'], false]],
    );
    const read = await call('GET', `${SPEC}/shirt/color`);
    assert.deepEqual((read.json() as { validValues: string[] }).validValues, ['red', 'blue']);
    const missing = await t.app.inject({
      url: `/admin/accounts/${seed.accountId}/storefronts/${seed.channel.installationId}/attribute-specs/nope`,
      headers: adminHeaders,
    });
    assert.equal(missing.statusCode, 404, missing.body);
    const foreignStorefront = await t.app.inject({
      url: `/admin/accounts/${seed.accountId}/storefronts/${foreign.channel.installationId}/attribute-specs/shirt`,
      headers: adminHeaders,
    });
    assert.equal(foreignStorefront.statusCode, 404, foreignStorefront.body);
  });

  it("checks the seller's values against the storefront's values, else the spec's, naming each bad field", async () => {
    // "navy" is only in the storefront's list, "blue" only in the spec's.
    const ok = await patch({ variants: [{ sku: 'TEE-1', productData: { attributes: [{ id: 'color', textValue: 'navy' }, { id: 'features', multiTextValue: { values: ['soft'] } }] } }] });
    assert.equal(ok.statusCode, 200, ok.body);
    const before = (await t.app.inject({ url: `/admin/accounts/${seed.accountId}/listings/${listingId}`, headers: adminHeaders })).json();
    const bad = await patch({
      productData: { attributes: [{ id: 'policy', textValue: '90 days' }] },
      variants: [
        {
          sku: 'TEE-1',
          productData: {
            attributes: [
              { id: 'color', textValue: 'blue' },
              { id: 'features', multiTextValue: { values: ['soft', 'warm'] } },
              { id: 'title', textValue: 'anything goes' },
            ],
          },
        },
      ],
    });
    assert.equal(bad.statusCode, 400, bad.body);
    const body = bad.json() as { errorMessages: string[] };
    const text = body.errorMessages.join(' ');
    for (const field of [
      'productData.attributes[0].textValue',
      'variants[0].productData.attributes[0].textValue',
      'variants[0].productData.attributes[1].multiTextValue.values[1]',
    ]) {
      assert.ok(text.includes(field), `${field} in ${text}`);
    }
    assert.ok(!text.includes('attributes[2]'), text);
    assert.match(text, /"blue" is not one of this storefront's valid values for "color": red, navy/);
    const numeric = await patch({ variants: [{ sku: 'TEE-1', productData: { attributes: [{ id: 'color', numericValue: 3 }] } }] });
    assert.equal(numeric.statusCode, 400, numeric.body);
    assert.match(numeric.body, /TYPE_SELECT/);
    const after = (await t.app.inject({ url: `/admin/accounts/${seed.accountId}/listings/${listingId}`, headers: adminHeaders })).json();
    assert.deepEqual(after, before, 'a refused edit changes nothing');

    // Creating is checked the same way; the product type of the body decides.
    const refused = await createListing({
      sku: 'HAT',
      productData: { productTypeId: 'hat' },
      variants: [{ sku: 'HAT-1', productData: { attributes: [{ id: 'color', textValue: 'black' }] } }],
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.body, /variants\[0\]\.productData\.attributes\[0\]\.textValue/);
    const otherType = await createListing({
      sku: 'MUG',
      productData: { productTypeId: 'mug' },
      variants: [{ sku: 'MUG-1', productData: { attributes: [{ id: 'color', textValue: 'black' }] } }],
    });
    assert.equal(otherType.statusCode, 201, otherType.body);
  });

  it("an empty list removes the storefront's values: the spec's own apply again", async () => {
    assert.equal((await setValues({ specId: 'color', validValues: [] })).statusCode, 200);
    assert.deepEqual((await getValues('specIds=color')).json(), { specIdToValidValues: {} });
    const color = (await offered()).find((s) => s.attributeSpecId === 'color');
    assert.deepEqual([color?.validValues, color?.storefrontValidValues], [['red', 'blue'], false]);
    const blue = await patch({ variants: [{ sku: 'TEE-1', productData: { attributes: [{ id: 'color', textValue: 'blue' }] } }] });
    assert.equal(blue.statusCode, 200, blue.body);
    const navy = await patch({ variants: [{ sku: 'TEE-1', productData: { attributes: [{ id: 'color', textValue: 'navy' }] } }] });
    assert.equal(navy.statusCode, 400, navy.body);
    assert.match((navy.json() as { errorMessages: string[] }).errorMessages.join(' '), /"navy" is not one of its valid values for "color": red, blue/);
  });

  it('refuses an unknown spec (404), a spec that is not select-type (400) and bad bodies (400), changing nothing', async () => {
    const before = await stored();
    assertV2Error(await setValues({ specId: 'nope', validValues: ['x'] }), 404, 5, /attribute spec "nope" not found/);
    assertV2Error(await setValues({ specId: 'title', validValues: ['x'] }), 400, 9, /TYPE_TEXT.*TYPE_SELECT and TYPE_MULTI_SELECT/);
    const cases: [unknown, string][] = [
      [{ validValues: ['x'] }, 'specId'],
      [{ specId: '', validValues: ['x'] }, 'specId'],
      [{ specId: '   ', validValues: ['x'] }, 'specId'],
      [{ specId: 'x'.repeat(257) }, 'specId'],
      [{ specId: 'color', validValues: 'red' }, 'validValues'],
      [{ specId: 'color', validValues: ['red', 7] }, 'validValues[1]'],
      [{ specId: 'color', valid_values: ['y'.repeat(1001)] }, 'valid_values[0]'],
      [{ specId: 'color', validValues: Array.from({ length: 10_001 }, (_, i) => `v${i}`) }, 'validValues'],
    ];
    for (const [payload, field] of cases) {
      const body = assertV2Error(await setValues(payload), 400, 3);
      assert.ok(violationFields(body).includes(field) || body.message.includes(field), `${field}: ${body.message}`);
    }
    assert.deepEqual(await stored(), before);
    assertV2Error(await getValues(`specIds=${'x'.repeat(257)}`), 400, 3, /specIds/);
    const half = (from: number) => Array.from({ length: 501 }, (_, i) => `s${from + i}`).join(',');
    assertV2Error(await getValues(`specIds=${half(0)}&specIds=${half(501)}`), 400, 3, /more than 1000/);
    assertV2Error(await getValues(`specIds=${Array.from({ length: 1001 }, (_, i) => `s${i}`).join(',')}`), 400, 3, /more than 1000/);
  });

  it("keeps each storefront's values to itself; another storefront's or account's spec ids are unknown", async () => {
    assert.equal((await setValues({ specId: 'policy', validValues: ['mine'] })).statusCode, 200);
    // Shop Two has no "policy" spec: unknown there, and the first storefront's values are invisible to it.
    assert.deepEqual((await getValues('specIds=policy', shopTwo.token)).json(), { specIdToValidValues: {} });
    assertV2Error(await setValues({ specId: 'policy', validValues: ['x'] }, shopTwo.token), 404, 5);
    assertV2Error(await setValues({ specId: 'policy', validValues: ['x'] }, foreign.channel.token), 404, 5);
    assert.deepEqual((await getValues('', shopTwo.token)).json(), { specIdToValidValues: {} });
    assert.equal((await setValues({ specId: 'color', validValues: ['teal'] }, shopTwo.token)).statusCode, 200);
    assert.deepEqual((await getValues('specIds=color,policy')).json(), { specIdToValidValues: { policy: { validValues: ['mine'] } } });
    assert.deepEqual((await getValues('', shopTwo.token)).json(), { specIdToValidValues: { color: { validValues: ['teal'] } } });
  });

  it('needs a storefront token', async () => {
    for (const token of [seed.sellerToken, seed.shipping.token]) {
      assertV2Error(await setValues({ specId: 'color', validValues: ['x'] }, token), 403, 7);
      assertV2Error(await getValues('specId=color', token), 403, 7);
    }
    assertV2Error(await t.app.inject({ url: `${VV}?specId=color` }), 401, 16);
  });
});
