import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { adminHeaders, assertV1Error, createAccountVia } from '../helpers/admin.js';
import { MAX_TEMPLATE_COLUMNS } from '../../src/domain/reports/templates.js';

type Template = { templateId: number; name: string; importType: string; columns: Record<string, string>; createdAt: string; updatedAt: string };

/** The seller's import templates under /admin (DESIGN.md operator API). */
describe('admin import templates', () => {
  let t: TestApp;
  let accountId: number;
  before(async () => {
    t = await createTestApp();
    accountId = await createAccountVia(t, 'Templates seller');
  });
  after(async () => t.close());

  const url = (path = '', account = accountId) => `/admin/accounts/${account}/import-templates${path}`;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown, account = accountId) =>
    t.app.inject({ method, url: url(path, account), headers: adminHeaders, ...(payload === undefined ? {} : { payload: payload as object }) });
  const feed = { name: 'Supplier feed', importType: 'FullProductData', columns: { 'Item Number': 'sku', 'Product Name': 'title', Colour: 'color' } };

  it('creates, lists, reads, replaces and deletes a template', async () => {
    const created = await call('POST', '', feed);
    assert.equal(created.statusCode, 201, created.body);
    const template = created.json() as Template;
    assert.ok(template.templateId > 0);
    assert.equal(template.name, 'Supplier feed');
    assert.equal(template.importType, 'FullProductData');
    assert.deepEqual(template.columns, feed.columns);
    assert.match(template.createdAt, /^\d{4}-\d\d-\d\dT/);
    assert.equal(template.updatedAt, template.createdAt);

    const second = await call('POST', '', { ...feed, name: 'Second', columns: { code: 'SKU' } });
    assert.equal(second.statusCode, 201, second.body);

    const list = await call('GET', '');
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(
      (list.json() as { results: Template[] }).results.map((r) => r.name),
      ['Supplier feed', 'Second'],
    );

    const read = await call('GET', `/${template.templateId}`);
    assert.equal(read.statusCode, 200, read.body);
    assert.deepEqual(read.json(), template);

    const replaced = await call('PUT', `/${template.templateId}`, { name: 'Supplier feed v2', columns: { SKU: 'sku', Price: 'price' } });
    assert.equal(replaced.statusCode, 200, replaced.body);
    const after = replaced.json() as Template;
    assert.equal(after.name, 'Supplier feed v2');
    assert.deepEqual(after.columns, { SKU: 'sku', Price: 'price' });
    assert.equal(after.importType, 'FullProductData');
    assert.equal(after.createdAt, template.createdAt);
    assert.deepEqual((await call('GET', `/${template.templateId}`)).json(), after);

    const deleted = await call('DELETE', `/${template.templateId}`);
    assert.equal(deleted.statusCode, 204, deleted.body);
    assert.equal(deleted.body, '');
    assertV1Error(await call('GET', `/${template.templateId}`), 404, /import template \d+ not found/);
    assertV1Error(await call('DELETE', `/${template.templateId}`), 404);
    assert.deepEqual(
      ((await call('GET', '')).json() as { results: Template[] }).results.map((r) => r.name),
      ['Second'],
    );
  });

  it('refuses other import types, a mapping without sku, read-only targets and duplicate headers (400)', async () => {
    assertV1Error(await call('POST', '', { ...feed, name: 'Inv', importType: 'Inventory' }), 400, /importType: templates serve FullProductData imports only, not Inventory/);
    assertV1Error(await call('POST', '', { ...feed, name: 'Bad type', importType: 'Nope' }), 400, /importType/);
    assertV1Error(await call('POST', '', { ...feed, name: 'No sku', columns: { 'Product Name': 'title' } }), 400, /must map a file header to sku/);
    assertV1Error(await call('POST', '', { ...feed, name: 'Empty', columns: {} }), 400, /at least one/);
    assertV1Error(await call('POST', '', { ...feed, name: 'RO', columns: { Code: 'sku', Made: 'created_at' } }), 400, /columns\.Made: created_at is read-only/);
    assertV1Error(await call('POST', '', { ...feed, name: 'Dup', columns: { 'Item Number': 'sku', item_number: 'title' } }), 400, /are the same header/);
    assertV1Error(await call('POST', '', { ...feed, name: 'Blank target', columns: { Code: 'sku', X: '   ' } }), 400, /columns\.X: names no field/);
    assertV1Error(await call('POST', '', { name: 'Missing columns', importType: 'FullProductData' }), 400, /columns/);
    const names = ((await call('GET', '')).json() as { results: Template[] }).results.map((r) => r.name);
    assert.deepEqual(names, ['Second'], 'nothing was created');
  });

  it('refuses ten times the column cap at once, naming the cap and no column', async () => {
    // Every column is also wrong on its own: only the cap may be reported, so no column was looked at.
    const columns = Object.fromEntries(Array.from({ length: 10 * MAX_TEMPLATE_COLUMNS }, (_, i) => [`h${i}`, 7]));
    const res = await call('POST', '', { name: 'Huge', importType: 'FullProductData', columns });
    assert.deepEqual(assertV1Error(res, 400), [`columns: must NOT have more than ${MAX_TEMPLATE_COLUMNS} properties`]);
    const names = ((await call('GET', '')).json() as { results: Template[] }).results.map((r) => r.name);
    assert.ok(!names.includes('Huge'));
  });

  it('a duplicate name is a 409 on create and on replace', async () => {
    const first = (await call('POST', '', { ...feed, name: 'Unique' })).json() as Template;
    assertV1Error(await call('POST', '', { ...feed, name: 'Unique' }), 409, /already exists/);
    assertV1Error(await call('PUT', `/${first.templateId}`, { name: 'Second', columns: feed.columns }), 409, /"Second" already exists/);
    // Keeping its own name is no conflict.
    const same = await call('PUT', `/${first.templateId}`, { name: 'Unique', columns: { code: 'sku' } });
    assert.equal(same.statusCode, 200, same.body);
    assertV1Error(await call('PUT', `/${first.templateId}`, { name: 'Unique', importType: 'Inventory', columns: { code: 'sku' } }), 400, /keeps its importType/);
    assertV1Error(await call('PUT', `/${first.templateId}`, { name: 'Unique', columns: { code: 'title' } }), 400, /sku/);
  });

  it('an unknown account or template, or one of another account, is a 404', async () => {
    const own = (await call('POST', '', { ...feed, name: 'Mine' })).json() as Template;
    assertV1Error(await call('GET', '', undefined, 999999), 404, /account 999999 not found/);
    assertV1Error(await call('POST', '', feed, 999999), 404, /account 999999 not found/);
    assertV1Error(await call('GET', '/999999'), 404, /import template 999999 not found/);
    assertV1Error(await call('PUT', '/999999', { name: 'X', columns: { a: 'sku' } }), 404);
    const other = await createAccountVia(t, 'Other');
    assertV1Error(await call('GET', `/${own.templateId}`, undefined, other), 404);
    assertV1Error(await call('PUT', `/${own.templateId}`, { name: 'Stolen', columns: { a: 'sku' } }, other), 404);
    assertV1Error(await call('DELETE', `/${own.templateId}`, undefined, other), 404);
    assert.equal((await call('GET', `/${own.templateId}`)).statusCode, 200, 'still there');
    assert.deepEqual(((await call('GET', '', undefined, other)).json() as { results: Template[] }).results, []);
  });

  it('requires the operator token', async () => {
    const res = await t.app.inject({ method: 'GET', url: url(), headers: { authorization: 'Bearer wrong' } });
    assertV1Error(res, 401);
  });

  it('reads a product with every field by name and its attributes; unknown SKU or account is a 404', async () => {
    const productUrl = (sku: string, account = accountId) => `/admin/accounts/${account}/products/${encodeURIComponent(sku)}`;
    assertV1Error(await t.app.inject({ url: productUrl('NOPE'), headers: adminHeaders }), 404, /product "NOPE" not found/);
    assertV1Error(await t.app.inject({ url: productUrl('NOPE', 999999), headers: adminHeaders }), 404, /account 999999 not found/);
    const db = t.deps.db.db;
    const now = new Date().toISOString();
    const { id } = await db
      .insertInto('products')
      .values({ account_id: accountId, sku: 'Read Me/1', sku_lower: 'read me/1', title: 'Lamp', active: 0, price: '9.5', standard_product_id: null, standard_product_id_type: null, inventory_updated_at: now, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('product_attributes').values({ account_id: accountId, product_id: id, attribute_id: 'color', value: 'red', updated_at: now }).execute();
    const res = await t.app.inject({ url: productUrl('Read Me/1'), headers: adminHeaders });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as Record<string, unknown>;
    assert.equal(body.sku, 'Read Me/1');
    assert.equal(body.active, false);
    assert.equal(body.title, 'Lamp');
    assert.equal(body.price, '9.5');
    assert.equal(body.map, null);
    assert.equal(body.condition, null);
    assert.equal(body.created_at, now);
    assert.deepEqual(body.attributes, { color: 'red' });
  });
});
