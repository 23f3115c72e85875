import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chunkPacer } from '../../src/domain/reports/imports/chunks.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { admin, adminHeaders, assertV1Error } from '../helpers/admin.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { importAndRun, lineErrors, postImport, runJobs, getReport, type ReportJson } from '../helpers/reports.js';

type Product = { sku: string; active: boolean; attributes: Record<string, string>; [field: string]: unknown };

/** TemplatelessProduct and FullProductData imports (resolutions §8, document 2.9 options) through POST /v1/report. */
describe('product imports', () => {
  let t: TestApp;
  let seed: SeededAccount;
  const clock = manualClock(new Date('2026-03-01T10:00:00.000Z'));
  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const product = async (sku: string, accountId = seed.accountId): Promise<Product | null> => {
    const res = await t.app.inject({ url: `/admin/accounts/${accountId}/products/${encodeURIComponent(sku)}`, headers: adminHeaders });
    if (res.statusCode === 404) return null;
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Product;
  };
  const run = async (csv: string, fields: Record<string, string | number | boolean> = {}): Promise<ReportJson> => {
    clock.advance(1000);
    return importAndRun(t, seed.sellerToken, csv, fields);
  };
  const expectCounts = (report: ReportJson, total: number, ok: number, errors: number) => {
    assert.equal(report.status, 'COMPLETE', JSON.stringify(report));
    assert.equal(report.totalLines, total, 'totalLines');
    assert.equal(report.linesSuccessfullyProcessed, ok, 'linesSuccessfullyProcessed');
    assert.equal(report.linesWithErrors, errors, 'linesWithErrors');
  };

  it('creates unknown SKUs only with createNewProducts; TemplatelessProduct is the default type', async () => {
    const without = await run('sku,title\nNEW-1,Blue mug\n');
    expectCounts(without, 1, 0, 1);
    assert.equal(without.importType, 'TemplatelessProduct');
    assert.match(await lineErrors(t, seed.sellerToken, without.reportId), /^2,sku,.*NEW-1.*does not exist; send createNewProducts true/m);
    assert.equal(await product('NEW-1'), null);

    const withOption = await run('sku,title\nNEW-1,Blue mug\n', { createNewProducts: true });
    expectCounts(withOption, 1, 1, 0);
    const created = await product('NEW-1');
    assert.equal(created?.title, 'Blue mug');
    assert.equal(created?.active, true);
    assert.equal(created?.created_at, clock.now().toISOString());
  });

  it('reads every field kind by name (case, spaces, _ and aliases), normalising values; other headers are attributes', async () => {
    const csv = [
      'SKU,Product Name,Brand,price,MSRP,map price,Cost,Weight,Weight Unit,Dimension_Unit,active,UPC,ean,isbn,gtin,standard product id type, Color ,size',
      'KIND-1,Mug,Acme,12.5,.5,007.50,3.,10,KG,IN,no,012345678905,4006381333931,0306406152,12345670,upc,  Dark Blue  ,XL',
    ].join('\n');
    const report = await run(csv, { createNewProducts: true });
    expectCounts(report, 1, 1, 0);
    assert.deepEqual(report.columnTypes.slice(0, 2), ['SKU', 'Product Name']);
    const p = await product('KIND-1');
    assert.ok(p);
    assert.equal(p.title, 'Mug');
    assert.equal(p.brand, 'Acme');
    assert.equal(p.price, '12.5');
    assert.equal(p.msrp, '0.5');
    assert.equal(p.map, '7.50');
    assert.equal(p.cost, '3');
    assert.equal(p.weight, '10');
    assert.equal(p.weight_unit, 'kg');
    assert.equal(p.dimension_unit, 'in');
    assert.equal(p.active, false);
    assert.equal(p.upc, '012345678905');
    assert.equal(p.ean, '4006381333931');
    assert.equal(p.isbn, '0306406152');
    assert.equal(p.gtin, '12345670');
    assert.equal(p.standard_product_id_type, 'UPC');
    assert.equal(p.description, null);
    assert.deepEqual(p.attributes, { Color: 'Dark Blue', size: 'XL' });
  });

  it('refuses bad cells per line, naming the column header and the problem; good lines of the file apply', async () => {
    const long = (n: number) => 'x'.repeat(n);
    const csv = [
      'sku,Title,Price,msrp,cost,active,upc,ean,weight_unit,description,notes',
      'BAD-OK,Fine,1,,,,,,,,',
      'BAD-1,,abc,,,,,,,,',
      'BAD-2,,,-1,,,,,,,',
      'BAD-3,,,,1e5,,,,,,',
      'BAD-4,,,,,maybe,,,,,',
      'BAD-5,,,,,,12345678901,,,,',
      'BAD-6,,,,,,,40063813339x1,,,',
      'BAD-7,,,,,,,,stone,,',
      `BAD-8,${long(1001)},,,,,,,,,`,
      `BAD-9,,,,,,,,,${long(65537)},`,
      `BAD-10,,,,,,,,,,${long(65537)}`,
      ',no sku,,,,,,,,,',
      'BAD-12,,1.2.3,,,TRUE,1,,,,',
    ].join('\n');
    const report = await run(csv, { createNewProducts: true });
    expectCounts(report, 13, 1, 12);
    const errors = await lineErrors(t, seed.sellerToken, report.reportId);
    assert.match(errors, /^3,Price,.*abc.*is not a non-negative decimal number/m);
    assert.match(errors, /^4,msrp,.*-1.*negative values are not allowed/m);
    assert.match(errors, /^5,cost,.*1e5.*without an exponent/m);
    assert.match(errors, /^6,active,.*maybe.*is not a boolean/m);
    assert.match(errors, /^7,upc,.*has 11 digits; a UPC has 12.*leading zeros/m);
    assert.match(errors, /^8,ean,.*is not a valid EAN: it must be 13 digits/m);
    assert.match(errors, /^9,weight_unit,.*stone.*is not one of lb, oz, kg, g/m);
    assert.match(errors, /^10,Title,"?Title is longer than 1,000 characters/m);
    assert.match(errors, /^11,description,"?description is longer than 65,536 characters/m);
    assert.match(errors, /^12,notes,"?notes is longer than 65,536 characters/m);
    assert.match(errors, /^13,sku,sku is required/m);
    // Every problem of a line is listed, each under its own header.
    assert.match(errors, /^14,Price,.*1\.2\.3/m);
    assert.match(errors, /^14,upc,/m);
    assert.equal((await product('BAD-OK'))?.title, 'Fine');
    for (const sku of ['BAD-1', 'BAD-5', 'BAD-12']) assert.equal(await product(sku), null, `${sku} was refused whole`);
  });

  it('without overwriteWithBlank blank cells change nothing; with it they clear fields and delete attributes, never active', async () => {
    await run('sku,title,brand,active,color,size\nBLANK-1,Lamp,Lumo,FALSE,red,M\n', { createNewProducts: true });
    const before = await product('BLANK-1');
    assert.deepEqual(before?.attributes, { color: 'red', size: 'M' });

    const untouched = await run('sku,title,brand,active,color,size\nBLANK-1,,,,,\n');
    expectCounts(untouched, 1, 1, 0);
    assert.deepEqual(await product('BLANK-1'), before, 'nothing changed, not even updated_at');

    const cleared = await run('sku,title,brand,active,color,size\nBLANK-1,,Lumo,,,M\n', { overwriteWithBlank: true });
    expectCounts(cleared, 1, 1, 0);
    const after = await product('BLANK-1');
    assert.equal(after?.title, null);
    assert.equal(after?.brand, 'Lumo');
    assert.equal(after?.active, false, 'a blank active never changes it');
    assert.deepEqual(after?.attributes, { size: 'M' });
    assert.equal(after?.updated_at, clock.now().toISOString());
    assert.equal(after?.created_at, before?.created_at);
  });

  it('insertOnly fills only blank fields and absent attributes; filled ones stay, without an error', async () => {
    await run('sku,title,color\nINS-1,Original,red\n', { createNewProducts: true });
    const report = await run('sku,title,brand,color,size,active\nINS-1,Replaced,Acme,blue,L,FALSE\n', { insertOnly: true });
    expectCounts(report, 1, 1, 0);
    const p = await product('INS-1');
    assert.equal(p?.title, 'Original');
    assert.equal(p?.brand, 'Acme');
    assert.equal(p?.active, true, 'an existing product always has active filled');
    assert.deepEqual(p?.attributes, { color: 'red', size: 'L' });

    // A product the import creates starts blank, so its first line fills everything.
    const created = await run('sku,title,active\nINS-2,New,FALSE\nINS-2,Later,TRUE\n', { insertOnly: true, createNewProducts: true });
    expectCounts(created, 2, 2, 0);
    const p2 = await product('INS-2');
    assert.equal(p2?.title, 'New');
    assert.equal(p2?.active, false);
  });

  it('refuses insertOnly with overwriteWithBlank when the report is created', async () => {
    const res = await postImport(t, seed.sellerToken, 'sku,title\nX,Y\n', { insertOnly: true, overwriteWithBlank: true });
    assertV1Error(res, 400, /insertOnly/);
  });

  it('moves updated_at only when a value changes (attributes count)', async () => {
    await run('sku,title,color\nUPD-1,Cup,red\n', { createNewProducts: true });
    const first = await product('UPD-1');
    await run('sku,title,color\nUPD-1,Cup,red\n');
    assert.equal((await product('UPD-1'))?.updated_at, first?.updated_at);
    await run('sku,title,color\nUPD-1,Cup,green\n');
    const changed = await product('UPD-1');
    assert.equal(changed?.updated_at, clock.now().toISOString());
    assert.notEqual(changed?.updated_at, first?.updated_at);
  });

  it('ignores read-only columns with a line-1 note, so an exported file imports unchanged', async () => {
    const csv = 'sku,title,created_at,Updated At\nRO-1,Kettle,2020-01-01T00:00:00.000Z,2020-01-01T00:00:00.000Z\n';
    const report = await run(csv, { createNewProducts: true });
    expectCounts(report, 1, 1, 0);
    const errors = await lineErrors(t, seed.sellerToken, report.reportId);
    assert.match(errors, /^1,created_at,"?created_at is read-only \(set by the service\); the column is ignored/m);
    assert.match(errors, /^1,Updated At,"?updated_at is read-only/m);
    const p = await product('RO-1');
    assert.equal(p?.title, 'Kettle');
    assert.equal(p?.created_at, clock.now().toISOString());
    assert.deepEqual(p?.attributes, {});
  });

  it('the same SKU twice in a file applies in order: the later line wins', async () => {
    const report = await run('sku,title,brand,color\nTWICE,First,Acme,red\nTWICE,Second,,\n', { createNewProducts: true });
    expectCounts(report, 2, 2, 0);
    const p = await product('TWICE');
    assert.equal(p?.title, 'Second');
    assert.equal(p?.brand, 'Acme');
    assert.deepEqual(p?.attributes, { color: 'red' });
    const again = await run('sku,title,color\nTWICE,Third,blue\nTWICE,,\n', { overwriteWithBlank: true });
    expectCounts(again, 2, 2, 0);
    const p2 = await product('TWICE');
    assert.equal(p2?.title, null);
    assert.deepEqual(p2?.attributes, {});
  });

  it('a header without sku, or with two columns for one field, fails the report and applies nothing', async () => {
    const noSku = await run('title,price\nA,1\n', { createNewProducts: true });
    assert.equal(noSku.status, 'CANCELED');
    assert.match(noSku.errorMessage ?? '', /no sku column/);
    const twice = await run('sku,title,name\nTWO,A,B\n', { createNewProducts: true });
    assert.equal(twice.status, 'CANCELED');
    assert.match(twice.errorMessage ?? '', /"title" and "name" both write title/);
    assert.equal(await product('TWO'), null);
  });

  it('1,200 lines cross chunk boundaries with exact counts, and the same SKU on both sides of a boundary', async () => {
    // The first chunk's size is fixed (the later ones follow their time on SQLite).
    const first = chunkPacer(t.deps.db.dialect).lines;
    const lines = ['sku,title,price,shade'];
    for (let i = 1; i <= 1200; i++) {
      const bad = i % 100 === 50;
      // The last data line of the first chunk and the first of the second write the same SKU.
      const sku = i === first + 1 ? `BULK-${first}` : `BULK-${i}`;
      lines.push(`${sku},Item ${i},${bad ? 'n/a' : `${i}.99`},tone ${i % 7}`);
    }
    const report = await run(lines.join('\n'), { createNewProducts: true });
    expectCounts(report, 1200, 1188, 12);
    assert.equal(report.expectedLines, 1200);
    const errors = (await lineErrors(t, seed.sellerToken, report.reportId)).trim().split(/\r?\n/).slice(1);
    assert.equal(errors.length, 12);
    assert.match(errors[0]!, /^51,price,.*n\/a/);
    assert.match(errors[11]!, /^1151,price,/);
    const across = await product(`BULK-${first}`);
    assert.equal(across?.title, `Item ${first + 1}`, 'the later line, in the next chunk, wins');
    assert.equal(across?.price, `${first + 1}.99`);
    assert.equal(await product('BULK-1150'), null);
    const last = await product('BULK-1200');
    assert.equal(last?.price, '1200.99');
    assert.deepEqual(last?.attributes, { shade: `tone ${1200 % 7}` });
    const count = await t.deps.db.db
      .selectFrom('products')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('account_id', '=', seed.accountId)
      .where('sku', 'like', 'BULK-%')
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 1187, '1,188 lines applied, two of them to one SKU');
  });

  describe('FullProductData through a template', () => {
    let templateId: number;
    before(async () => {
      const res = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/import-templates`, {
        name: 'Supplier feed',
        importType: 'FullProductData',
        columns: { 'Item Number': 'sku', 'Product Name': 'title', 'Retail Price': 'price', Colour: 'color', Batch: 'batch', Brand: 'brand' },
      });
      assert.equal(res.statusCode, 201, res.body);
      templateId = (res.json() as { templateId: number }).templateId;
    });

    it('maps file headers through the template; headers not in it are ignored with a note; missing ones are absent', async () => {
      const csv = 'item number,Product Name,RETAIL PRICE,Colour,Warehouse Bin,title\nTPL-1,Teapot,19.90,green,B-4,ignored title\n';
      const report = await run(csv, { importType: 'FullProductData', templateId, createNewProducts: true });
      expectCounts(report, 1, 1, 0);
      assert.equal(report.importType, 'FullProductData');
      assert.equal(report.templateId, templateId);
      const errors = await lineErrors(t, seed.sellerToken, report.reportId);
      assert.match(errors, /^1,Warehouse Bin,"not in template ""Supplier feed""; the column is ignored"$/m);
      assert.match(errors, /^1,title,"not in template/m);
      const p = await product('TPL-1');
      assert.equal(p?.title, 'Teapot');
      assert.equal(p?.price, '19.90');
      assert.equal(p?.brand, null);
      assert.deepEqual(p?.attributes, { color: 'green' });
    });

    it('validates and applies the options like TemplatelessProduct', async () => {
      const bad = await run('Item Number,Retail Price,Brand\nTPL-1,abc,\nTPL-404,1,\n', { importType: 'FullProductData', templateId, overwriteWithBlank: true });
      expectCounts(bad, 2, 0, 2);
      const errors = await lineErrors(t, seed.sellerToken, bad.reportId);
      assert.match(errors, /^2,Retail Price,.*abc.*not a non-negative decimal/m);
      assert.match(errors, /^3,Item Number,.*TPL-404.*createNewProducts/m);
      const cleared = await run('Item Number,Colour\nTPL-1,\n', { importType: 'FullProductData', templateId, overwriteWithBlank: true });
      expectCounts(cleared, 1, 1, 0);
      assert.deepEqual((await product('TPL-1'))?.attributes, {});
      assert.equal((await product('TPL-1'))?.title, 'Teapot');
    });

    it('a file without the template\'s sku column fails the report', async () => {
      const report = await run('Product Name\nTeapot\n', { importType: 'FullProductData', templateId, createNewProducts: true });
      assert.equal(report.status, 'CANCELED');
      assert.match(report.errorMessage ?? '', /none of the columns template "Supplier feed" maps to sku \("Item Number"\)/);
    });

    it('an unknown template, or one of another account, is a 404 when the report is created', async () => {
      assertV1Error(await postImport(t, seed.sellerToken, 'Item Number\nX\n', { importType: 'FullProductData', templateId: 999999 }), 404, /import template 999999 not found/);
      const other = await seedAccount(t, 'Other seller');
      assertV1Error(await postImport(t, other.sellerToken, 'Item Number\nX\n', { importType: 'FullProductData', templateId }), 404, /not found/);
      assertV1Error(await postImport(t, seed.sellerToken, 'Item Number\nX\n', { importType: 'FullProductData' }), 400, /templateId/);
    });

    it('a template deleted before the report runs fails it with a message', async () => {
      const res = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/import-templates`, { name: 'Short-lived', importType: 'FullProductData', columns: { code: 'sku' } });
      const shortLived = (res.json() as { templateId: number }).templateId;
      const created = await postImport(t, seed.sellerToken, 'code\nGONE-1\n', { importType: 'FullProductData', templateId: shortLived, createNewProducts: true });
      assert.equal(created.statusCode, 200, created.body);
      const deleted = await t.app.inject({ method: 'DELETE', url: `/admin/accounts/${seed.accountId}/import-templates/${shortLived}`, headers: adminHeaders });
      assert.equal(deleted.statusCode, 204);
      await runJobs(t);
      const report = (await getReport(t, seed.sellerToken, (created.json() as { reportId: number }).reportId)).json() as ReportJson;
      assert.equal(report.status, 'CANCELED');
      assert.match(report.errorMessage ?? '', /import template \d+ no longer exists/);
      assert.equal(await product('GONE-1'), null);
    });
  });
});
