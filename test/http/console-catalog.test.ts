import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withTx } from '../../src/db/tx.js';
import { listCatalogProducts, type CatalogPosition } from '../../src/domain/catalog/catalog-list.js';
import { createProductsBySku } from '../../src/domain/catalog/create-products.js';
import { getProductView } from '../../src/domain/catalog/product-read.js';
import { FORM_FIELDS } from '../../src/domain/reports/imports/product-form.js';
import { FIELD_WORDS } from '../../src/http/console/seller/catalog/product-form.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { stock } from './v1-sales-orders-helpers.js';

const PASSWORD = 'correct horse battery';
const PAGED = 60;

/** The product SKUs a list page links to, in order. */
const skuLinks = (body: string) => [...body.matchAll(/class="row-link" href="\/console\/catalog\/\d+">([^<]+)</g)].map((m) => m[1]!);
const pageLink = (body: string, label: string) => {
  const match = new RegExp(`href="(/console/catalog\\?[^"]*)">${label}`).exec(body);
  return match ? match[1]!.replace(/&amp;/g, '&') : null;
};
const idOf = (location: string) => Number(/\/console\/catalog\/(\d+)$/.exec(location)![1]);

/** A full form as the page posts it: every field blank unless given, plus attribute rows. */
function form(values: Record<string, string>, attributes: [string, string][] = []): [string, string][] {
  const entries: [string, string][] = [];
  if (values.sku !== undefined) entries.push(['sku', values.sku]);
  for (const f of FORM_FIELDS) entries.push([f.name, values[f.name] ?? '']);
  for (const [name, value] of [...attributes, ['', ''] as [string, string]]) entries.push(['attr_name', name], ['attr_value', value]);
  return entries;
}

describe('console: the catalog (products list, search, paging, create, edit, kits)', () => {
  const clock = manualClock(new Date('2026-11-24T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let owner: ConsoleBrowser;
  let staff: ConsoleBrowser;
  let stranger: ConsoleBrowser;

  const list = async (query = '') => {
    const res = await owner.get(`/console/catalog${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.body;
  };
  const found = async (q: string) => skuLinks(await list(`?q=${encodeURIComponent(q)}`));
  const view = (sku: string) => getProductView(t.deps.db.db, seed.accountId, sku);

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Catalog Shop');
    other = await seedAccount(t, 'Other Catalog Shop');
    const ids = await withTx(t.deps.db.db, (tx) =>
      createProductsBySku(
        tx,
        seed.accountId,
        Array.from({ length: PAGED }, (_, i) => `PG-${String(i).padStart(3, '0')}`),
        clock.now(),
      ),
    );
    assert.equal(ids.size, PAGED);
    for (const [email, role] of [
      ['owner@catalog.example', 'OWNER'],
      ['staff@catalog.example', 'STAFF'],
    ]) {
      assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email, password: PASSWORD, role })).statusCode, 201);
    }
    assert.equal((await admin(t, 'POST', `/admin/accounts/${other.accountId}/users`, { email: 'owner@other-catalog.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@catalog.example', PASSWORD)).statusCode, 303);
    staff = consoleBrowser(t);
    assert.equal((await staff.signIn('staff@catalog.example', PASSWORD)).statusCode, 303);
    stranger = consoleBrowser(t);
    assert.equal((await stranger.signIn('owner@other-catalog.example', PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  it('labels every form field in words (no field of the form without one)', () => {
    for (const f of FORM_FIELDS) assert.ok(FIELD_WORDS[f.name], `a label for ${f.name}`);
  });

  it('shows a clear empty state to an account without products, and the Catalog nav entry', async () => {
    const res = await stranger.get('/console/catalog');
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /No products yet\./);
    assert.match(res.body, /href="\/console\/catalog\/new"/);
    assert.match(res.body, /<a href="\/console\/catalog" aria-current="page">Catalog<\/a>/);
  });

  it('creates a product from the form and shows it with the price in the seller currency', async () => {
    const res = await owner.postEntries(
      '/console/catalog/new',
      form(
        { sku: 'MUG-BLUE', title: 'Blue Mug', brand: 'Acme Pottery', price: '12.50', msrp: '15', upc: '012345678905', weight: '0.4', weight_unit: 'kg', description: 'A mug.\nBlue.', image_url: 'https://img.example/mug.jpg' },
        [['color', 'blue']],
      ),
    );
    assert.equal(res.statusCode, 303, res.body);
    const location = res.headers.location as string;
    const page = await owner.get(location);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Product MUG-BLUE is created\./);
    assert.match(page.body, /<h1>Blue Mug<\/h1>/);
    assert.match(page.body, /\$12\.50/);
    assert.match(page.body, /value="blue"/);
    const stored = await view('MUG-BLUE');
    assert.equal(stored.title, 'Blue Mug');
    assert.equal(stored.price, '12.50');
    assert.equal(stored.weight_unit, 'kg');
    assert.equal(stored.upc, '012345678905');
    assert.deepEqual(stored.attributes, { color: 'blue' });
    assert.equal(stored.created_at, clock.now().toISOString());
  });

  it('lists products with title, brand, price and stock, and finds them by SKU, title or brand in any case', async () => {
    await stock(t, seed.sellerToken, 'MUG-BLUE', seed.warehouses.main, 7);
    const body = await list();
    assert.match(body, /MUG-BLUE<\/a>[\s\S]*?Blue Mug[\s\S]*?Acme Pottery[\s\S]*?\$12\.50[\s\S]*?7 available/);
    assert.deepEqual(await found('mug-b'), ['MUG-BLUE'], 'by a part of the SKU');
    assert.deepEqual(await found('BLUE MUG'), ['MUG-BLUE'], 'by the title, any case');
    assert.deepEqual(await found('pottery'), ['MUG-BLUE'], 'by the brand');
    assert.deepEqual(await found('%'), [], 'a wildcard is a character');
    assert.deepEqual(await found('_'), [], 'so is an underscore');
    assert.equal((await found('pg-0')).length, 50, 'a page of the PG products');
    const none = await list('?q=nothing-like-this');
    assert.match(none, /No product matches &#34;nothing-like-this&#34;: each word you type must start a word of a SKU, title or brand\./);
    assert.equal((await stranger.get('/console/catalog?q=mug')).body.includes('MUG-BLUE'), false, "never another seller's product");
  });

  it('pages both ways with signed links, and answers a changed or foreign link with a 400 page', async () => {
    const first = await list('?q=pg-');
    assert.equal(pageLink(first, '← Previous page'), null);
    const firstSkus = skuLinks(first);
    assert.equal(firstSkus.length, 50);
    assert.equal(firstSkus[0], 'PG-000');
    const next = pageLink(first, 'Next page →')!;
    const second = await list(next.replace('/console/catalog', ''));
    assert.deepEqual(skuLinks(second), Array.from({ length: 10 }, (_, i) => `PG-${String(50 + i).padStart(3, '0')}`));
    assert.equal(pageLink(second, 'Next page →'), null);
    assert.match(second, /End of the list\./);
    const previous = pageLink(second, '← Previous page')!;
    const back = await list(previous.replace('/console/catalog', ''));
    assert.deepEqual(skuLinks(back), firstSkus);
    assert.equal(pageLink(back, '← Previous page'), null, 'the first page again: nothing before it');
    assert.ok(pageLink(back, 'Next page →'));
    // Without a search: the whole catalog, MUG-BLUE first.
    assert.equal(skuLinks(await list())[0], 'MUG-BLUE');

    for (const url of ['/console/catalog?cursor=forged', next]) {
      const res = await (url === next ? stranger : owner).get(url);
      assert.equal(res.statusCode, 400, url);
      assert.match(res.body, /This page link is out of date or was changed/);
    }
  });

  it('reads at most a stretch of the catalog per searched page, and goes on from where it stopped both ways', async () => {
    const db = t.deps.db.db;
    // shortList 0: every word counts as naming many products, so the page walks the SKU index (budgeted);
    // the default lists each word's products from the search index and sorts those.
    const walk = async (q: string, budget: number, shortList = 0) => {
      const pages: string[][] = [];
      let position: CatalogPosition | null = null;
      let stops = 0;
      for (;;) {
        const page = await listCatalogProducts(db, seed.accountId, q, position, 4, budget, shortList);
        pages.push(page.products.map((p) => p.sku));
        if (page.searchedTo !== null) stops++;
        if (!page.next) return { pages, stops };
        position = { sku: page.next, direction: 'after' };
      }
    };
    for (const q of ['pg-01', 'pg-05', 'mug', 'nothing-like-this']) {
      const whole = await walk(q, 1_000_000);
      const bounded = await walk(q, 7);
      const listed = await walk(q, 7, 1000);
      assert.equal(whole.stops, 0);
      assert.equal(listed.stops, 0, `${q}: a word naming few products is listed, not walked`);
      assert.deepEqual(listed.pages.flat(), whole.pages.flat(), `${q}: the index lists the same products`);
      // A word no product has is an empty list: nothing to walk. Otherwise the small budget stops short.
      if (q === 'nothing-like-this') assert.deepEqual(bounded.pages.flat(), []);
      else assert.ok(bounded.stops > 0, `${q}: the small budget stopped short`);
      assert.deepEqual(bounded.pages.flat(), whole.pages.flat(), `${q}: the same products, in the same order`);
      for (const p of bounded.pages) assert.ok(p.length <= 4);
      // And back from the last page with a product to the first.
      const found = whole.pages.flat();
      if (found.length <= 4) continue;
      const lastSku = found[found.length - 1]!;
      const back: string[] = [];
      let position: CatalogPosition = { sku: lastSku, direction: 'before' };
      for (;;) {
        const page = await listCatalogProducts(db, seed.accountId, q, position, 4, 7, 0);
        assert.ok(page.products.length <= 4);
        back.unshift(...page.products.map((p) => p.sku));
        if (!page.previous) break;
        position = { sku: page.previous, direction: 'before' };
      }
      assert.deepEqual([...back, lastSku], found, `${q}: paging back finds the same products`);
    }
  });

  it('edits a product: changed values saved, blank ones cleared, attributes added and removed, updated_at moved', async () => {
    const id = idOf((await owner.get('/console/catalog?q=MUG-BLUE')).body.match(/href="(\/console\/catalog\/\d+)"/)![1]!);
    clock.advance(60_000);
    const before = await view('MUG-BLUE');
    const res = await owner.postEntries(
      `/console/catalog/${id}`,
      form({ title: 'Blue Mug, large', brand: 'Acme Pottery', price: '14', upc: '012345678905', weight: '0.4', weight_unit: 'kg', description: 'A mug.\nBlue.' }, [['size', 'L']]),
    );
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, `/console/catalog/${id}`);
    const page = await owner.get(`/console/catalog/${id}`);
    assert.match(page.body, /Your changes to the product are saved\./);
    const after = await view('MUG-BLUE');
    assert.equal(after.title, 'Blue Mug, large');
    assert.equal(after.price, '14');
    assert.equal(after.msrp, null, 'a blank field clears it');
    assert.equal(after.image_url, null);
    assert.deepEqual(after.attributes, { size: 'L' }, 'color removed, size added');
    assert.equal(after.updated_at, clock.now().toISOString());
    assert.notEqual(after.updated_at, before.updated_at);
    assert.equal(after.created_at, before.created_at);
    // The SKU is the product's key: a posted one is ignored.
    const renamed = await owner.postEntries(`/console/catalog/${id}`, [['sku', 'RENAMED'], ...form({ title: 'Blue Mug, large', price: '14' })]);
    await owner.get(renamed.headers.location as string);
    assert.equal((await view('MUG-BLUE')).sku, 'MUG-BLUE');
  });

  it('refuses every invalid value in words naming the label, keeping what was typed and saving nothing', async () => {
    const cases: { values: Record<string, string>; attributes?: [string, string][]; message: RegExp; kept?: RegExp }[] = [
      { values: { sku: 'BAD-1', price: 'abc' }, message: /Price &#34;abc&#34; is not a non-negative decimal number like 12\.5\./, kept: /value="abc"/ },
      { values: { sku: 'BAD-1', price: '-3' }, message: /Price &#34;-3&#34; is not a non-negative decimal number like 12\.5 \(negative values are not allowed\)\./ },
      { values: { sku: 'BAD-1', msrp: '1,200' }, message: /List price \(MSRP\) &#34;1,200&#34; is not a non-negative decimal number/ },
      { values: { sku: 'BAD-1', cost: '1e5' }, message: /Cost &#34;1e5&#34;.*without an exponent/ },
      { values: { sku: 'BAD-1', title: 'x'.repeat(1001) }, message: /Title is longer than 1,000 characters\./, kept: /value="x{1001}"/ },
      { values: { sku: 'BAD-1', description: 'y'.repeat(64 * 1024 + 1) }, message: /Description is longer than 65,536 characters\./ },
      { values: { sku: 'BAD-1', upc: '12345' }, message: /UPC &#34;12345&#34; has 5 digits; a UPC has 12\./ },
      { values: { sku: 'BAD-1', ean: 'ABC' }, message: /EAN &#34;ABC&#34; is not a valid EAN: it must be 13 digits\./ },
      { values: { sku: 'BAD-1', weight_unit: 'stone' }, message: /Weight unit &#34;stone&#34; is not one of lb, oz, kg, g\./ },
      { values: { sku: '' }, message: /SKU is required\./ },
      { values: { sku: 'S'.repeat(256) }, message: /SKU is longer than 255 characters\./ },
      { values: { sku: 'MUG-BLUE' }, message: /SKU &#34;MUG-BLUE&#34; is already a product of yours\./ },
      { values: { sku: 'mug-blue' }, message: /SKU &#34;mug-blue&#34; is already a product of yours, written MUG-BLUE/ },
      { values: { sku: 'BAD-1' }, attributes: [['', 'orphan']], message: /Attribute 1 name is needed for the value next to it\./ },
      { values: { sku: 'BAD-1' }, attributes: [['price', '3']], message: /Attribute 1 name &#34;price&#34; is the name of a product field/ },
      { values: { sku: 'BAD-1' }, attributes: [['n'.repeat(256), '3']], message: /Attribute 1 name is longer than 255 characters\./ },
      { values: { sku: 'BAD-1' }, attributes: [['color', 'a'], ['color', 'b']], message: /Attribute 2 name &#34;color&#34; is listed twice\./ },
      { values: { sku: 'BAD-1' }, attributes: [['note', 'z'.repeat(64 * 1024 + 1)]], message: /Attribute 1 value is longer than 65,536 characters\./ },
    ];
    for (const c of cases) {
      const res = await owner.postEntries('/console/catalog/new', form({ title: 'Kept title', ...c.values }, c.attributes));
      assert.equal(res.statusCode, 400, `${c.message}: ${res.statusCode}`);
      assert.match(res.body, c.message);
      assert.match(res.body, /The product was not saved/);
      assert.match(res.body, /aria-invalid="true"/);
      assert.match(res.body, c.kept ?? /value="Kept title"/);
      assert.doesNotMatch(res.body.slice(res.body.indexOf('role="alert"'), res.body.indexOf('</ul>')), /standard_product_id|map_price|weight_unit|\bmsrp\b/, 'no API field names in the problems');
    }
    assert.match((await owner.postEntries('/console/catalog/new', form({ sku: 'MUG-BLUE' }))).body, /Open that product/);
    // A taken SKU is told along with the other problems, in the order of the form.
    const both = await owner.postEntries('/console/catalog/new', form({ sku: 'MUG-BLUE', upc: '1', price: 'x' }));
    assert.match(both.body, /SKU &#34;MUG-BLUE&#34; is already a product of yours\.[\s\S]*Price &#34;x&#34;[\s\S]*UPC &#34;1&#34; has 1 digit;/);
    assert.equal(
      (await t.deps.db.db.selectFrom('products').select('id').where('account_id', '=', seed.accountId).where('sku', '=', 'BAD-1').execute()).length,
      0,
      'nothing created',
    );
    // Edits are checked the same way and leave the product as it was.
    const id = (await view('MUG-BLUE')).title;
    const productId = idOf((await owner.get('/console/catalog?q=MUG-BLUE')).body.match(/href="(\/console\/catalog\/\d+)"/)![1]!);
    const res = await owner.postEntries(`/console/catalog/${productId}`, form({ title: 'Changed', price: 'twelve' }));
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /Price &#34;twelve&#34; is not a non-negative decimal/);
    assert.match(res.body, /value="Changed"/);
    assert.equal((await view('MUG-BLUE')).title, id);
  });

  it("answers another account's product, a missing or a malformed id with the 404 page, and refuses a post without the form token", async () => {
    const productId = idOf((await owner.get('/console/catalog?q=MUG-BLUE')).body.match(/href="(\/console\/catalog\/\d+)"/)![1]!);
    assert.equal((await stranger.get(`/console/catalog/${productId}`)).statusCode, 404);
    const posted = await stranger.postEntries(`/console/catalog/${productId}`, form({ title: 'Hijacked' }));
    assert.equal(posted.statusCode, 404);
    assert.notEqual((await view('MUG-BLUE')).title, 'Hijacked');
    assert.equal((await owner.get('/console/catalog/999999')).statusCode, 404);
    assert.equal((await owner.get('/console/catalog/abc')).statusCode, 404);
    const noToken = await owner.post('/console/catalog/new', { sku: 'NO-TOKEN' }, { csrf: false });
    assert.equal(noToken.statusCode, 403);
  });

  it('lets STAFF users create and edit products, as every seller page', async () => {
    await staff.get('/console/catalog/new');
    const res = await staff.postEntries('/console/catalog/new', form({ sku: 'STAFF-1', title: 'Made by staff', price: '3.00' }));
    assert.equal(res.statusCode, 303, res.body);
    const id = idOf(res.headers.location as string);
    const edited = await staff.postEntries(`/console/catalog/${id}`, form({ title: 'Edited by staff', price: '4' }));
    assert.equal(edited.statusCode, 303, edited.body);
    assert.equal((await view('STAFF-1')).title, 'Edited by staff');
  });

  it('shows kits with how many can be assembled, per warehouse on the product page', async () => {
    await stock(t, seed.sellerToken, 'CUP', seed.warehouses.main, 10);
    await stock(t, seed.sellerToken, 'SAUCER', seed.warehouses.main, 3);
    await stock(t, seed.sellerToken, 'SET', seed.warehouses.main, 0);
    const kit = await admin(t, 'PUT', `/admin/accounts/${seed.accountId}/products/SET/kit`, { components: [{ sku: 'CUP', quantity: 2 }, { sku: 'SAUCER', quantity: 1 }] });
    assert.equal(kit.statusCode, 200, kit.body);
    const body = await list('?q=set');
    assert.deepEqual(skuLinks(body), ['SET']);
    assert.match(body, /<span class="badge">Kit<\/span> <span>can assemble 3<\/span>/);
    assert.doesNotMatch(await list('?q=cup'), /can assemble/, 'a component is no kit');
    const id = idOf(body.match(/href="(\/console\/catalog\/\d+)"/)![1]!);
    const page = await owner.get(`/console/catalog/${id}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Kit components/);
    assert.match(page.body, /CUP<\/a><\/td><td><\/td><td class="num">2<\/td><td class="num">10<\/td>/);
    assert.match(page.body, /<td>Main<\/td><td class="num">0<\/td><td class="num">3<\/td>/, 'Main: no assembled kit, 3 from components');
    // More saucers: the cups (10 ÷ 2) limit it to 5.
    await stock(t, seed.sellerToken, 'SAUCER', seed.warehouses.main, 9);
    assert.match(await list('?q=set'), /can assemble 5/);
  });
});
