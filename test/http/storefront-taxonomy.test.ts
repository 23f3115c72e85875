import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_PRODUCT_TYPES_PER_STOREFRONT, MAX_SPECS_PER_PRODUCT_TYPE } from '../../src/domain/listings/taxonomy.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, installAndExchange, seedAccount, type InstalledApp, type SeededAccount } from '../helpers/fixtures.js';
import { assertV2Error, violationFields } from '../helpers/v2.js';

const fields = violationFields;

const PT = '/v2/storefront/taxonomy/product_type';
const SPEC = '/v2/storefront/taxonomy/attribute_spec';

/** Every 2.15 field at its proto3 default, for comparisons. */
const EMPTY_SPEC = {
  displayName: '',
  type: 'TYPE_UNSPECIFIED',
  validValues: [],
  validUnits: [],
  objectSpec: {},
  objectFieldSpecs: {},
  unit: '',
  level: 'LEVEL_UNSPECIFIED',
  classification: 'CLASSIFICATION_UNSPECIFIED',
  usage: 'USAGE_UNSPECIFIED',
  description: '',
  examples: [],
  maxUniqueItems: '0',
  suggestedValues: [],
};

/** Storefront taxonomy routes (document 2.15, 4.7; resolutions §4). */
describe('v2 storefront taxonomy', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let secondStorefront: InstalledApp;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const token = () => seed.channel.token;
  const tables = async () => ({
    types: await t.deps.db.db.selectFrom('taxonomy_product_types').selectAll().orderBy('id').execute(),
    specs: await t.deps.db.db.selectFrom('taxonomy_attribute_specs').selectAll().orderBy('id').execute(),
  });
  const putSpec = (productTypeId: string, spec: Record<string, unknown>, tok = token()) =>
    call('PUT', `${SPEC}/${encodeURIComponent(productTypeId)}`, tok, { attributeSpec: spec });

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    secondStorefront = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Two', name: 'eBay' });
  });
  after(async () => t.close());

  it('refuses a token without a storefront (403) on every route', async () => {
    const routes: [('GET' | 'POST' | 'PUT' | 'DELETE'), string, unknown?][] = [
      ['GET', PT],
      ['POST', PT, { productType: { productTypeId: 'X' } }],
      ['DELETE', `${PT}/X`],
      ['GET', `${SPEC}/X`],
      ['GET', `${SPEC}/X/a`],
      ['PUT', `${SPEC}/X`, { attributeSpec: { attributeSpecId: 'a' } }],
      ['POST', `${SPEC}/X`, { attributeSpec: { attributeSpecId: 'a' } }],
      ['PUT', `${SPEC}/X/a`, { attributeSpec: {} }],
      ['DELETE', `${SPEC}/X/a`],
    ];
    for (const [method, url, payload] of routes) {
      assertV2Error(await call(method, url, seed.sellerToken, payload), 403, 7);
      assertV2Error(await call(method, url, seed.shipping.token, payload), 403, 7);
    }
    assert.deepEqual(await tables(), { types: [], specs: [] });
  });

  it('creates product types (wrapped, bare, snake_case), upserts them and lists them ordered by id', async () => {
    const empty = await call('GET', PT, token());
    assert.equal(empty.statusCode, 200, empty.body);
    assert.deepEqual(empty.json(), { productTypes: [] });

    const created = await call('POST', PT, token(), { productType: { productTypeId: 'shoes', displayName: 'Shoes', description: 'Footwear' } });
    assert.equal(created.statusCode, 200, created.body);
    const createdAt = clock.now().toISOString();
    // A description is accepted and kept, but the answer is the production message, which has none.
    assert.deepEqual(created.json(), { productType: { productTypeId: 'shoes', displayName: 'Shoes', createdAt, updatedAt: createdAt } });

    clock.advance(1000);
    const bare = await call('POST', PT, token(), { product_type_id: 'Books', display_name: 'Books' });
    assert.equal(bare.statusCode, 200, bare.body);
    assert.equal(bare.json().productType.productTypeId, 'Books');
    assert.equal(bare.json().productType.displayName, 'Books');
    assert.equal('description' in bare.json().productType, false);
    const snakeWrapped = await call('POST', PT, token(), { product_type: { productTypeId: 'apparel' } });
    assert.equal(snakeWrapped.statusCode, 200, snakeWrapped.body);

    clock.advance(1000);
    const again = await call('POST', PT, token(), { productType: { productTypeId: 'shoes', displayName: 'Shoes & boots' } });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json(), {
      productType: {
        productTypeId: 'shoes',
        displayName: 'Shoes & boots',
        createdAt,
        updatedAt: clock.now().toISOString(),
      },
    });

    const list = await call('GET', PT, token());
    assert.equal(list.statusCode, 200, list.body);
    const listed = (list.json() as { productTypes: { productTypeId: string }[] }).productTypes;
    assert.deepEqual(listed.map((p) => p.productTypeId), ['Books', 'apparel', 'shoes']);
    assert.deepEqual(listed[2], again.json().productType);
  });

  it('refuses a product type without a usable id, or with wrong field types, and changes nothing', async () => {
    const before = await tables();
    const cases: [unknown, RegExp][] = [
      [{ productType: { displayName: 'No id' } }, /productType\.productTypeId: is required/],
      [{ displayName: 'No id, bare' }, /productTypeId: is required/],
      [{ productType: { productTypeId: '  ' } }, /productTypeId: must not be empty/],
      [{ productType: { productTypeId: 'x'.repeat(256) } }, /at most 255/],
      [{ productType: { productTypeId: 5 } }, /productType\.productTypeId/],
      [{ productType: { productTypeId: 'ok', description: ['list'] } }, /productType\.description/],
    ];
    for (const [payload, pattern] of cases) assertV2Error(await call('POST', PT, token(), payload), 400, 3, pattern);
    const malformed = await t.app.inject({
      method: 'POST',
      url: PT,
      headers: { ...bearer(token()), 'content-type': 'application/json' },
      payload: '{"productType": {"productTypeId": "broken"',
    });
    assertV2Error(malformed, 400, 3, /malformed JSON/);
    assert.deepEqual(await tables(), before);
  });

  it('PUTs an attribute spec with the id in the body: every 2.15 field, enums by name, int64 as string', async () => {
    clock.advance(1000);
    const spec = {
      attributeSpecId: 'color',
      displayName: 'Colour',
      type: 'TYPE_SELECT',
      validValues: ['red', 'blue'],
      validUnits: [],
      unit: '',
      level: 'LEVEL_VARIANT',
      classification: 'CLASSIFICATION_PRODUCT',
      usage: 'USAGE_REQUIRED',
      description: 'Main colour',
      examples: ['red'],
      maxUniqueItems: '3',
      suggestedValues: ['red'],
      createdAt: '2000-01-01T00:00:00Z',
      somethingUnknown: true,
    };
    const res = await putSpec('shoes', spec);
    assert.equal(res.statusCode, 200, res.body);
    const now = clock.now().toISOString();
    assert.deepEqual(res.json(), {
      ...EMPTY_SPEC,
      attributeSpecId: 'color',
      displayName: 'Colour',
      type: 'TYPE_SELECT',
      validValues: ['red', 'blue'],
      level: 'LEVEL_VARIANT',
      classification: 'CLASSIFICATION_PRODUCT',
      usage: 'USAGE_REQUIRED',
      description: 'Main colour',
      examples: ['red'],
      maxUniqueItems: '3',
      suggestedValues: ['red'],
      createdAt: now,
      updatedAt: now,
    });
    const get = await call('GET', `${SPEC}/shoes/color`, token());
    assert.equal(get.statusCode, 200, get.body);
    assert.deepEqual(get.json(), res.json());
    const row = (await tables()).specs.find((s) => s.attribute_spec_id === 'color')!;
    assert.equal(Number(row.max_unique_items), 3);
    assert.equal(row.product_type_id, 'shoes');
  });

  it('answers a minimal spec with every field at its proto3 default and stores no limit for 0', async () => {
    const res = await putSpec('shoes', { attributeSpecId: 'brand', maxUniqueItems: 0 });
    assert.equal(res.statusCode, 200, res.body);
    const now = clock.now().toISOString();
    assert.deepEqual(res.json(), { ...EMPTY_SPEC, attributeSpecId: 'brand', createdAt: now, updatedAt: now });
    const row = (await tables()).specs.find((s) => s.attribute_spec_id === 'brand')!;
    assert.equal(row.max_unique_items, null);
  });

  it('reads enum numbers inside maps (objectSpec values, objectFieldSpecs types) and null as UNSPECIFIED', async () => {
    clock.advance(1000);
    const res = await call('PUT', `${SPEC}/shoes/fit`, token(), {
      attributeSpec: {
        type: 8,
        objectSpec: { width: 3, label: 'TYPE_TEXT', extra: null },
        objectFieldSpecs: { cut: { type: 2, validValues: ['slim'] } },
        level: null,
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.type, 'TYPE_MULTI_OBJECT');
    assert.deepEqual(body.objectSpec, { width: 'TYPE_NUMERIC', label: 'TYPE_TEXT', extra: 'TYPE_UNSPECIFIED' });
    assert.deepEqual(body.objectFieldSpecs, { cut: { type: 'TYPE_SELECT', validValues: ['slim'] } });
    assert.equal(body.level, 'LEVEL_UNSPECIFIED');
    const bad = await call('PUT', `${SPEC}/shoes/fit`, token(), { attributeSpec: { type: 8, objectSpec: { width: 9 } } });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.match(bad.json().message, /attributeSpec\.objectSpec\.width: must be one of TYPE_UNSPECIFIED/);
    // Leave the product type's specs as the later tests expect them.
    assert.equal((await call('DELETE', `${SPEC}/shoes/fit`, token())).statusCode, 200);
  });

  it('accepts enum numbers, snake_case names, int64 as a number and the id in the path', async () => {
    clock.advance(1000);
    const res = await call('PUT', `${SPEC}/shoes/size`, token(), {
      attribute_spec: {
        display_name: 'Size',
        type: 4,
        valid_units: ['EU', 'US'],
        level: 2,
        classification: 5,
        usage: 3,
        max_unique_items: 2,
        suggested_values: ['42'],
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.attributeSpecId, 'size');
    assert.equal(body.displayName, 'Size');
    assert.equal(body.type, 'TYPE_NUMERIC_WITH_UNITS');
    assert.deepEqual(body.validUnits, ['EU', 'US']);
    assert.equal(body.level, 'LEVEL_VARIANT');
    assert.equal(body.classification, 'CLASSIFICATION_IDENTIFIER');
    assert.equal(body.usage, 'USAGE_RECOMMENDED');
    assert.equal(body.maxUniqueItems, '2');
    assert.deepEqual(body.suggestedValues, ['42']);

    // The path id wins when the body repeats it (or leaves it empty).
    const same = await call('PUT', `${SPEC}/shoes/size`, token(), { attributeSpec: { attributeSpecId: 'size', type: 'TYPE_NUMERIC' } });
    assert.equal(same.statusCode, 200, same.body);
    assert.equal(same.json().type, 'TYPE_NUMERIC');
  });

  it('upserts a spec: every field replaced, createdAt kept, updatedAt moves', async () => {
    const first = (await call('GET', `${SPEC}/shoes/color`, token())).json();
    clock.advance(5000);
    const res = await putSpec('shoes', { attributeSpecId: 'color', type: 'TYPE_MULTI_SELECT', validValues: ['green'] });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      ...EMPTY_SPEC,
      attributeSpecId: 'color',
      type: 'TYPE_MULTI_SELECT',
      validValues: ['green'],
      createdAt: first.createdAt,
      updatedAt: clock.now().toISOString(),
    });
    const row = (await tables()).specs.find((s) => s.attribute_spec_id === 'color')!;
    assert.equal(row.max_unique_items, null);
    assert.equal((await tables()).specs.filter((s) => s.attribute_spec_id === 'color').length, 1);
  });

  it('refuses mismatched ids, a missing id or wrapper, bad enums and bad values, naming each field, and changes nothing', async () => {
    const before = await tables();
    const mismatch = assertV2Error(
      await call('PUT', `${SPEC}/shoes/size`, token(), { attributeSpec: { attributeSpecId: 'color', type: 'TYPE_TEXT' } }),
      400,
      3,
      /attributeSpec\.attributeSpecId: "color" differs from the attributeSpecId in the path \("size"\)/,
    );
    assert.deepEqual(fields(mismatch), ['attributeSpec.attributeSpecId']);
    assertV2Error(await putSpec('shoes', { type: 'TYPE_TEXT' }), 400, 3, /attributeSpec\.attributeSpecId: is required/);
    assertV2Error(await putSpec('shoes', { attributeSpecId: '' }), 400, 3, /attributeSpecId: is required/);
    assertV2Error(await call('PUT', `${SPEC}/shoes`, token(), { attributeSpecId: 'bare' }), 400, 3, /attributeSpec: is required/);
    assertV2Error(await call('PUT', `${SPEC}/shoes/size`, token(), {}), 400, 3, /attributeSpec: is required/);

    const badEnums = assertV2Error(
      await putSpec('shoes', { attributeSpecId: 'x', type: 'TYPE_FOO', level: 7, classification: 'PRODUCT', usage: -1 }),
      400,
      3,
      /attributeSpec\.type: must be one of TYPE_UNSPECIFIED, TYPE_TEXT/,
    );
    assert.deepEqual(fields(badEnums).sort(), ['attributeSpec.classification', 'attributeSpec.level', 'attributeSpec.type', 'attributeSpec.usage']);
    const snakeEnum = assertV2Error(await call('PUT', `${SPEC}/shoes/x`, token(), { attribute_spec: { type: 'text' } }), 400, 3);
    assert.deepEqual(fields(snakeEnum), ['attribute_spec.type']);

    const badValues: [Record<string, unknown>, string][] = [
      [{ attributeSpecId: 'x', maxUniqueItems: -1 }, 'attributeSpec.maxUniqueItems'],
      [{ attributeSpecId: 'x', maxUniqueItems: 'many' }, 'attributeSpec.maxUniqueItems'],
      [{ attributeSpecId: 'x', maxUniqueItems: 1.5 }, 'attributeSpec.maxUniqueItems'],
      [{ attributeSpecId: 'x', maxUniqueItems: '99999999999' }, 'attributeSpec.maxUniqueItems'],
      [{ attributeSpecId: 'x', validValues: 'red' }, 'attributeSpec.validValues'],
      [{ attributeSpecId: 'x', examples: ['a', 3] }, 'attributeSpec.examples[1]'],
      [{ attributeSpecId: 'x', type: 'TYPE_TEXT', objectSpec: { color: 'TYPE_TEXT' } }, 'attributeSpec.objectSpec'],
      [{ attributeSpecId: 'x', objectFieldSpecs: { color: { type: 'TYPE_SELECT', validValues: ['red'] } } }, 'attributeSpec.objectFieldSpecs'],
      [{ attributeSpecId: 'x', type: 'TYPE_MULTI_OBJECT', objectSpec: { color: 'TYPE_BLUE' } }, 'attributeSpec.objectSpec.color'],
      [{ attributeSpecId: 'x', type: 'TYPE_MULTI_OBJECT', objectFieldSpecs: { color: { type: 99 } } }, 'attributeSpec.objectFieldSpecs.color.type'],
      [{ attributeSpecId: 'x'.repeat(257) }, 'attributeSpec.attributeSpecId'],
    ];
    for (const [spec, field] of badValues) {
      const body = assertV2Error(await putSpec('shoes', spec), 400, 3);
      assert.ok(fields(body).includes(field), `${JSON.stringify(spec)} → ${JSON.stringify(body)}`);
    }
    const malformed = await t.app.inject({
      method: 'PUT',
      url: `${SPEC}/shoes/size`,
      headers: { ...bearer(token()), 'content-type': 'application/json' },
      payload: '{"attributeSpec": ',
    });
    assertV2Error(malformed, 400, 3, /malformed JSON/);
    // A bad spec never creates its product type either.
    assertV2Error(await putSpec('never-created', { attributeSpecId: 'x', type: 'TYPE_FOO' }), 400, 3);
    assert.deepEqual(await tables(), before);
  });

  it('keeps objectSpec and objectFieldSpecs for TYPE_MULTI_OBJECT', async () => {
    const res = await putSpec('apparel', {
      attributeSpecId: 'bullet_points',
      type: 'TYPE_MULTI_OBJECT',
      objectSpec: { value: 'TYPE_TEXT', language: 2 },
      object_field_specs: { language: { type: 'TYPE_SELECT', valid_values: ['en', 'de'] }, value: {} },
      maxUniqueItems: 5,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().objectSpec, { value: 'TYPE_TEXT', language: 'TYPE_SELECT' });
    assert.deepEqual(res.json().objectFieldSpecs, {
      language: { type: 'TYPE_SELECT', validValues: ['en', 'de'] },
      value: { type: 'TYPE_UNSPECIFIED', validValues: [] },
    });
  });

  it('creates the product type implicitly when a spec arrives first', async () => {
    clock.advance(1000);
    const res = await putSpec('toys', { attributeSpecId: 'age', type: 'TYPE_NUMERIC' });
    assert.equal(res.statusCode, 200, res.body);
    const types = (await call('GET', PT, token())).json() as { productTypes: { productTypeId: string }[] };
    const toys = types.productTypes.find((p) => p.productTypeId === 'toys');
    const now = clock.now().toISOString();
    assert.deepEqual(toys, { productTypeId: 'toys', displayName: '', createdAt: now, updatedAt: now });
    // A later POST names it without touching its specs.
    clock.advance(1000);
    const named = await call('POST', PT, token(), { productType: { productTypeId: 'toys', displayName: 'Toys' } });
    assert.equal(named.json().productType.createdAt, now);
    assert.equal((await call('GET', `${SPEC}/toys/age`, token())).statusCode, 200);
  });

  it('POST creates a spec and answers it; an existing id on that product type is a 409 and changes nothing', async () => {
    clock.advance(1000);
    const created = await call('POST', `${SPEC}/hats`, token(), { attributeSpec: { attributeSpecId: 'brim', type: 'TYPE_SELECT', valid_values: ['wide', 'narrow'] } });
    assert.equal(created.statusCode, 200, created.body);
    const at = clock.now().toISOString();
    assert.deepEqual(created.json(), { ...EMPTY_SPEC, attributeSpecId: 'brim', type: 'TYPE_SELECT', validValues: ['wide', 'narrow'], createdAt: at, updatedAt: at });
    assert.deepEqual((await call('GET', `${SPEC}/hats/brim`, token())).json(), created.json());
    // Like the PUT, a spec arriving first creates its product type.
    const hats = ((await call('GET', PT, token())).json() as { productTypes: { productTypeId: string; createdAt: string }[] }).productTypes.find(
      (p) => p.productTypeId === 'hats',
    );
    assert.equal(hats?.createdAt, at);

    clock.advance(1000);
    const before = await tables();
    assertV2Error(
      await call('POST', `${SPEC}/hats`, token(), { attribute_spec: { attribute_spec_id: 'brim', type: 'TYPE_TEXT' } }),
      409,
      6,
      /attribute spec "brim" of product type "hats" already exists/,
    );
    // A 409 on a product type that does not exist yet creates nothing either: the spec is on another type.
    const other = await call('POST', `${SPEC}/caps`, token(), { attributeSpec: { attributeSpecId: 'brim' } });
    assert.equal(other.statusCode, 200, other.body);
    await call('DELETE', `${PT}/caps`, token());
    assert.deepEqual(await tables(), before);
    // The PUT still replaces it.
    const replaced = await putSpec('hats', { attributeSpecId: 'brim', type: 'TYPE_TEXT' });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.equal(replaced.json().type, 'TYPE_TEXT');
    assert.equal(replaced.json().createdAt, at);
  });

  it('answers concurrent POSTs of one new spec with one 200 and 409s, storing it once', async () => {
    const results = await Promise.all(
      [1, 2, 3].map((n) => call('POST', `${SPEC}/race`, token(), { attributeSpec: { attributeSpecId: 'r', displayName: `try ${n}` } })),
    );
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409, 409], results.map((r) => r.body).join('\n'));
    const specs = (await call('GET', `${SPEC}/race`, token())).json() as { attributeSpecs: { displayName: string }[] };
    assert.equal(specs.attributeSpecs.length, 1);
    assert.equal(specs.attributeSpecs[0]!.displayName, (results.find((r) => r.statusCode === 200)!.json() as { displayName: string }).displayName);
    await call('DELETE', `${PT}/race`, token());
  });

  it('POST refuses a spec without an id or wrapper, or with bad fields, naming them, and changes nothing', async () => {
    const before = await tables();
    assertV2Error(await call('POST', `${SPEC}/hats`, token(), { attributeSpec: { type: 'TYPE_TEXT' } }), 400, 3, /attributeSpec\.attributeSpecId: is required/);
    assertV2Error(await call('POST', `${SPEC}/hats`, token(), {}), 400, 3, /attributeSpec/);
    assertV2Error(await call('POST', `${SPEC}/new-type`, token(), { attributeSpec: { attributeSpecId: 'x', examples: 'one' } }), 400, 3, /examples/);
    assertV2Error(await call('POST', `${SPEC}/new-type`, token(), { attributeSpec: { attributeSpecId: ' ' } }), 400, 3, /attributeSpecId/);
    assert.deepEqual(await tables(), before);
    // Another storefront's spec of the same ids does not exist for this one.
    const mine = await call('POST', `${SPEC}/hats`, secondStorefront.token, { attributeSpec: { attributeSpecId: 'brim' } });
    assert.equal(mine.statusCode, 200, mine.body);
    await call('DELETE', `${PT}/hats`, secondStorefront.token);
  });

  it('lists a product type\'s specs ordered by id; an unknown product type is a 404', async () => {
    const res = await call('GET', `${SPEC}/shoes`, token());
    assert.equal(res.statusCode, 200, res.body);
    const specs = (res.json() as { attributeSpecs: { attributeSpecId: string; type: string }[] }).attributeSpecs;
    assert.deepEqual(specs.map((s) => s.attributeSpecId), ['brand', 'color', 'size']);
    assert.deepEqual(specs[1], (await call('GET', `${SPEC}/shoes/color`, token())).json());
    const books = await call('GET', `${SPEC}/Books`, token());
    assert.deepEqual(books.json(), { attributeSpecs: [] });
    assertV2Error(await call('GET', `${SPEC}/nope`, token()), 404, 5, /product type "nope" not found/);
    assertV2Error(await call('GET', `${SPEC}/shoes/nope`, token()), 404, 5, /attribute spec "nope"/);
    assertV2Error(await call('GET', `${SPEC}/nope/color`, token()), 404, 5);
  });

  it('handles ids that need URL encoding', async () => {
    const res = await putSpec('home/kitchen & dining', { attributeSpecId: 'material type', type: 'TYPE_TEXT' });
    assert.equal(res.statusCode, 200, res.body);
    const get = await call('GET', `${SPEC}/${encodeURIComponent('home/kitchen & dining')}/${encodeURIComponent('material type')}`, token());
    assert.equal(get.statusCode, 200, get.body);
    assert.equal(get.json().attributeSpecId, 'material type');
    const del = await call('DELETE', `${PT}/${encodeURIComponent('home/kitchen & dining')}`, token());
    assert.equal(del.statusCode, 200, del.body);
  });

  it('hides the taxonomy from another storefront of the account and from another account', async () => {
    const before = await tables();
    for (const foreign of [secondStorefront.token, other.channel.token]) {
      assert.deepEqual((await call('GET', PT, foreign)).json(), { productTypes: [] });
      assertV2Error(await call('GET', `${SPEC}/shoes`, foreign), 404, 5);
      assertV2Error(await call('GET', `${SPEC}/shoes/color`, foreign), 404, 5);
      assertV2Error(await call('DELETE', `${SPEC}/shoes/color`, foreign), 404, 5);
      assertV2Error(await call('DELETE', `${PT}/shoes`, foreign), 404, 5);
    }
    assert.deepEqual(await tables(), before);

    // The same ids live side by side, each storefront seeing its own.
    const mine = await putSpec('shoes', { attributeSpecId: 'color', type: 'TYPE_TEXT', displayName: 'Farbe' }, secondStorefront.token);
    assert.equal(mine.statusCode, 200, mine.body);
    assert.equal((await call('GET', `${SPEC}/shoes/color`, token())).json().type, 'TYPE_MULTI_SELECT');
    assert.equal((await call('GET', `${SPEC}/shoes/color`, secondStorefront.token)).json().displayName, 'Farbe');
    assert.deepEqual(
      ((await call('GET', PT, secondStorefront.token)).json() as { productTypes: { productTypeId: string }[] }).productTypes.map((p) => p.productTypeId),
      ['shoes'],
    );
    assert.equal((await call('DELETE', `${PT}/shoes`, secondStorefront.token)).statusCode, 200);
    assert.equal((await call('GET', `${SPEC}/shoes/color`, token())).statusCode, 200);
  });

  it('deletes one spec (404 when unknown), keeping the product type', async () => {
    const res = await call('DELETE', `${SPEC}/shoes/brand`, token());
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {});
    assertV2Error(await call('GET', `${SPEC}/shoes/brand`, token()), 404, 5);
    assertV2Error(await call('DELETE', `${SPEC}/shoes/brand`, token()), 404, 5);
    assert.deepEqual(
      ((await call('GET', `${SPEC}/shoes`, token())).json() as { attributeSpecs: { attributeSpecId: string }[] }).attributeSpecs.map((s) => s.attributeSpecId),
      ['color', 'size'],
    );
  });

  it('deletes a product type with its specs (404 when unknown)', async () => {
    assertV2Error(await call('DELETE', `${PT}/nope`, token()), 404, 5, /product type "nope" not found/);
    const res = await call('DELETE', `${PT}/shoes`, token());
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {});
    assertV2Error(await call('GET', `${SPEC}/shoes`, token()), 404, 5);
    assertV2Error(await call('GET', `${SPEC}/shoes/color`, token()), 404, 5);
    const { types, specs } = await tables();
    const channelId = seed.channel.installationId;
    assert.equal(types.filter((p) => p.storefront_id === channelId && p.product_type_id === 'shoes').length, 0);
    assert.equal(specs.filter((s) => s.storefront_id === channelId && s.product_type_id === 'shoes').length, 0);
    // Other product types keep theirs.
    assert.equal((await call('GET', `${SPEC}/apparel/bullet_points`, token())).statusCode, 200);
    assertV2Error(await call('DELETE', `${PT}/shoes`, token()), 404, 5);
  });

  it('applies concurrent PUTs of new specs on a new product type without a conflict', async () => {
    const results = await Promise.all([
      ...['a', 'b', 'c', 'd'].map((id) => putSpec('concurrent', { attributeSpecId: id, type: 'TYPE_TEXT' })),
      ...[1, 2, 3].map(() => putSpec('concurrent', { attributeSpecId: 'same', type: 'TYPE_TEXT' })),
    ]);
    for (const res of results) assert.equal(res.statusCode, 200, res.body);
    const { types, specs } = await tables();
    assert.equal(types.filter((p) => p.product_type_id === 'concurrent').length, 1);
    assert.deepEqual(specs.filter((p) => p.product_type_id === 'concurrent').map((p) => p.attribute_spec_id).sort(), ['a', 'b', 'c', 'd', 'same']);
  });

  it('refuses a new product type or spec past the caps (FAILED_PRECONDITION), still rewriting existing ones', async () => {
    const capped = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Capped', name: 'Capped' });
    const db = t.deps.db.db;
    const at = clock.now().toISOString();
    const base = { account_id: seed.accountId, storefront_id: capped.installationId, created_at: at, updated_at: at };
    for (let i = 0; i < MAX_PRODUCT_TYPES_PER_STOREFRONT; i += 500) {
      const rows = Array.from({ length: Math.min(500, MAX_PRODUCT_TYPES_PER_STOREFRONT - i) }, (_, k) => ({
        ...base,
        product_type_id: `pt-${String(i + k).padStart(5, '0')}`,
        display_name: '',
        description: '',
      }));
      await db.insertInto('taxonomy_product_types').values(rows).execute();
    }
    for (let i = 0; i < MAX_SPECS_PER_PRODUCT_TYPE; i += 500) {
      const rows = Array.from({ length: Math.min(500, MAX_SPECS_PER_PRODUCT_TYPE - i) }, (_, k) => ({
        ...base,
        product_type_id: 'pt-00000',
        attribute_spec_id: `spec-${String(i + k).padStart(5, '0')}`,
        spec: '{}',
        max_unique_items: null,
      }));
      await db.insertInto('taxonomy_attribute_specs').values(rows).execute();
    }
    const before = await tables();
    assertV2Error(await call('POST', PT, capped.token, { productType: { productTypeId: 'one-more' } }), 400, 9, /at most 10000 product types/);
    assertV2Error(await putSpec('one-more', { attributeSpecId: 'x' }, capped.token), 400, 9, /at most 10000 product types/);
    assertV2Error(await putSpec('pt-00000', { attributeSpecId: 'one-more' }, capped.token), 400, 9, /at most 2000 attribute specs/);
    assert.deepEqual(await tables(), before);

    const rename = await call('POST', PT, capped.token, { productType: { productTypeId: 'pt-00001', displayName: 'Renamed' } });
    assert.equal(rename.statusCode, 200, rename.body);
    const rewrite = await putSpec('pt-00000', { attributeSpecId: 'spec-00000', type: 'TYPE_TEXT' }, capped.token);
    assert.equal(rewrite.statusCode, 200, rewrite.body);
    // Rows written before this version (an empty spec JSON) read back with every default.
    const old = await call('GET', `${SPEC}/pt-00000/spec-00001`, capped.token);
    assert.deepEqual(old.json(), { ...EMPTY_SPEC, attributeSpecId: 'spec-00001', createdAt: at, updatedAt: at });
    const list = await call('GET', PT, capped.token);
    assert.equal((list.json() as { productTypes: unknown[] }).productTypes.length, MAX_PRODUCT_TYPES_PER_STOREFRONT);
  });
});
