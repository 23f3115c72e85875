import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { adminHeaders } from '../helpers/admin.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { importAndRun } from '../helpers/reports.js';
import { errorLinesOf, guideSamples, lineErrors, validationErrorLines } from './report-imports-errors.js';
import { stock } from './v1-sales-orders-helpers.js';

/** Kits imports (resolutions §8) through POST /v1/report, run by the report job. */
describe('kits import', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    for (const sku of ['KA', 'KB', 'KC', 'KD', 'KE', 'KF', 'MUG', 'TEA', 'SPOON', 'LID', 'PLATE', 'BOWL', 'CUP', 'FORK']) await stock(t, seed.sellerToken, sku, seed.warehouses.main, 5);
  });
  after(async () => t.close());

  const kitUrl = (sku: string) => `/admin/accounts/${seed.accountId}/products/${encodeURIComponent(sku)}/kit`;
  const putKit = async (sku: string, components: { sku: string; quantity: number }[]) => {
    const res = await t.app.inject({ method: 'PUT', url: kitUrl(sku), headers: adminHeaders, payload: { components } });
    assert.equal(res.statusCode, 200, res.body);
  };
  /** The kit's recipe as "SKU×n" sorted, or null when the product does not exist. */
  const recipe = async (sku: string): Promise<string[] | null> => {
    const res = await t.app.inject({ url: kitUrl(sku), headers: adminHeaders });
    if (res.statusCode === 404) return null;
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { components: { sku: string; quantity: number }[] }).components.map((c) => `${c.sku}×${c.quantity}`).sort();
  };
  const run = (csv: string, fields: Record<string, string | number | boolean> = {}) => importAndRun(t, seed.sellerToken, csv, { importType: 'Kits', ...fields });

  it('replaces the recipe of each kit in a multi-kit file; headers match case-insensitively with spaces and _ equal', async () => {
    await putKit('KA', [{ sku: 'LID', quantity: 4 }]);
    const csv = ['Kit SKU,component_sku,QUANTITY', 'KA,MUG,2', 'KA,TEA,1', 'KB,SPOON,3'].join('\r\n');
    const report = await run(csv);
    assert.equal(report.status, 'COMPLETE', JSON.stringify(report));
    assert.equal(report.importType, 'Kits');
    assert.equal(report.totalLines, 3);
    assert.equal(report.linesSuccessfullyProcessed, 3);
    assert.equal(report.linesWithErrors, 0);
    assert.deepEqual(await recipe('KA'), ['MUG×2', 'TEA×1']);
    assert.deepEqual(await recipe('KB'), ['SPOON×3']);
  });

  it('refuses the later rows of a kit that comes back after another kit, naming its first line', async () => {
    const report = await run(['kit_sku,component_sku,quantity', 'KC,MUG,1', 'KD,TEA,1', 'KC,SPOON,1'].join('\n'));
    assert.equal(report.status, 'COMPLETE');
    assert.equal(report.linesSuccessfullyProcessed, 2);
    assert.equal(report.linesWithErrors, 1);
    assert.match(await lineErrors(t, seed.sellerToken, report.reportId), /^4,kit_sku,.*"KC" must be consecutive: the kit starts at line 2/m);
    assert.deepEqual(await recipe('KC'), ['MUG×1']);
    assert.deepEqual(await recipe('KD'), ['TEA×1']);
  });

  it('a kit that comes back in a later chunk of the file is refused there too', async () => {
    const rows = ['kit_sku,component_sku,quantity'];
    // 12 kits of 50 components each: 600 rows, few kits to apply.
    for (let i = 1; i <= 12; i++) for (let j = 1; j <= 50; j++) rows.push(`CHUNK-KIT-${i},CHUNK-PART-${j},1`);
    rows.push('CHUNK-KIT-1,LID,1'); // file line 602, data line 601: past the first chunk (at most 500 lines)
    const report = await run(rows.join('\n'), { createNewProducts: true });
    assert.equal(report.status, 'COMPLETE', JSON.stringify(report));
    assert.equal(report.linesSuccessfullyProcessed, 600);
    assert.match(await lineErrors(t, seed.sellerToken, report.reportId), /^602,kit_sku,the rows of kit "CHUNK-KIT-1" must be consecutive: the kit starts at line 2/m);
    const kit = await recipe('CHUNK-KIT-1');
    assert.equal(kit?.length, 50);
    assert.ok(!kit.includes('LID×1'));
  });

  it('one invalid row refuses every row of its kit and leaves the kit unchanged; other kits apply', async () => {
    await putKit('KE', [{ sku: 'LID', quantity: 1 }]);
    const csv = [
      'kit_sku,component_sku,quantity',
      'KE,MUG,1',
      'KE,TEA,0', // quantity below 1
      'KF,KF,1', // itself
      'KF,MUG,1',
      'MUG,PLATE,1', // MUG is a component of KA and KC: kits cannot be nested
      'BOWL,KA,1', // KA is a kit: cannot be a component
      'CUP,PLATE,1',
      'CUP,PLATE,2', // listed twice
      'FORK,PLATE,2', // applies
    ].join('\n');
    const validated = await validationErrorLines(t, 'Kits', csv, { accountId: seed.accountId });
    assert.deepEqual(await recipe('FORK'), [], 'validation writes nothing');
    const report = await run(csv);
    assert.equal(report.status, 'COMPLETE');
    assert.deepEqual(errorLinesOf(await lineErrors(t, seed.sellerToken, report.reportId)), validated, 'validation refuses exactly the lines the import refuses');
    assert.equal(report.totalLines, 9);
    assert.equal(report.linesSuccessfullyProcessed, 1);
    assert.equal(report.linesWithErrors, 8);
    const errors = await lineErrors(t, seed.sellerToken, report.reportId);
    assert.match(errors, /^2,kit_sku,kit "KE" is left unchanged: line 3 has an error/m);
    assert.match(errors, /^3,quantity,quantity \(units per kit\) must be from 1/m);
    assert.match(errors, /^4,component_sku,a kit cannot contain itself/m);
    assert.match(errors, /^5,kit_sku,kit "KF" is left unchanged: line 4/m);
    assert.match(errors, /^6,kit_sku,"MUG" is a component of kit "K[AC]"; kits cannot be nested/m);
    assert.match(errors, /^7,component_sku,component "KA" is a kit itself/m);
    assert.match(errors, /^9,component_sku,component "PLATE" is listed twice .*line 8/m);
    assert.match(errors, /^8,kit_sku,kit "CUP" is left unchanged: line 9/m);
    assert.deepEqual(await recipe('KE'), ['LID×1']);
    assert.deepEqual(await recipe('KF'), []);
    assert.deepEqual(await recipe('MUG'), []);
    assert.deepEqual(await recipe('BOWL'), []);
    assert.deepEqual(await recipe('CUP'), []);
    assert.deepEqual(await recipe('FORK'), ['PLATE×2']);
  });

  it('a recipe applied earlier in the file counts for the later kits (nesting across the file)', async () => {
    // NEST-1 becomes a kit holding the new NEST-PART, so NEST-PART can no longer become a kit in the same file.
    const csv = ['kit_sku,component_sku,quantity', 'NEST-1,NEST-PART,1', 'NEST-PART,LID,1'].join('\n');
    assert.deepEqual(await validationErrorLines(t, 'Kits', csv, { accountId: seed.accountId, createNewProducts: true }), [3]);
    assert.equal(await recipe('NEST-1'), null, 'validation creates no product');
    const report = await run(csv, { createNewProducts: true });
    assert.equal(report.linesSuccessfullyProcessed, 1);
    assert.match(await lineErrors(t, seed.sellerToken, report.reportId), /^3,kit_sku,"NEST-PART" is a component of kit "NEST-1"/m);
    assert.deepEqual(await recipe('NEST-1'), ['NEST-PART×1']);
    assert.deepEqual(await recipe('NEST-PART'), []);
  });

  it('unknown kit or component SKUs are created only with createNewProducts', async () => {
    const csv = ['kit_sku,component_sku,quantity', 'NEW-KIT,MUG,1', 'KB,NEW-PART,2'].join('\n');
    const without = await run(csv);
    assert.equal(without.linesSuccessfullyProcessed, 0);
    assert.equal(without.linesWithErrors, 2);
    const errors = await lineErrors(t, seed.sellerToken, without.reportId);
    assert.match(errors, /^2,kit_sku,kit SKU "NEW-KIT" does not exist; send createNewProducts true/m);
    assert.match(errors, /^3,component_sku,component SKU "NEW-PART" does not exist; send createNewProducts true/m);
    assert.equal(await recipe('NEW-KIT'), null);
    assert.equal(await recipe('NEW-PART'), null);
    assert.deepEqual(await recipe('KB'), ['SPOON×3']);

    const withOption = await run(csv, { createNewProducts: true });
    assert.equal(withOption.linesSuccessfullyProcessed, 2, await lineErrors(t, seed.sellerToken, withOption.reportId));
    assert.deepEqual(await recipe('NEW-KIT'), ['MUG×1']);
    assert.deepEqual(await recipe('KB'), ['NEW-PART×2']);
    assert.deepEqual(await recipe('NEW-PART'), []);
  });

  it('insertOnly leaves a kit that has components unchanged (its rows refused) and fills a kit that has none', async () => {
    const csv = ['kit_sku,component_sku,quantity', 'KA,LID,9', 'KA,MUG,9', 'KF,LID,2'].join('\n');
    const report = await run(csv, { insertOnly: true });
    assert.equal(report.linesSuccessfullyProcessed, 1);
    assert.equal(report.linesWithErrors, 2);
    const errors = await lineErrors(t, seed.sellerToken, report.reportId);
    assert.match(errors, /^2,kit_sku,kit "KA" already has components; insertOnly leaves it unchanged/m);
    assert.match(errors, /^3,kit_sku,kit "KA" already has components/m);
    assert.deepEqual(await recipe('KA'), ['MUG×2', 'TEA×1']);
    assert.deepEqual(await recipe('KF'), ['LID×2']);
  });

  it("the guide's sample file imports", async () => {
    const report = await run(guideSamples()[0]!, { createNewProducts: true });
    assert.equal(report.linesSuccessfullyProcessed, 4, await lineErrors(t, seed.sellerToken, report.reportId));
    assert.deepEqual(await recipe('GIFT-BOX'), ['MUG-RED×2', 'TEA-GREEN×1']);
  });

  it('a header without the Kits columns fails the report, applying nothing', async () => {
    const report = await run('kit_sku,quantity\nKA,1\n');
    assert.equal(report.status, 'CANCELED');
    assert.match(report.errorMessage ?? '', /no component_sku column/);
  });
});
