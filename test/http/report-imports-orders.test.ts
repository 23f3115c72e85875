import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chunkPacer } from '../../src/domain/reports/imports/chunks.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { adminHeaders, assertV1Error } from '../helpers/admin.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { importAndRun, postImport } from '../helpers/reports.js';
import { errorLinesOf, guideSamples, lineErrors, validationErrorLines } from './report-imports-errors.js';
import { availableBySku, routes, stock, type Order } from './v1-sales-orders-helpers.js';

/** Orders imports (resolutions §8) into a custom store through POST /v1/report, run by the report job. */
describe('orders import', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let phoneStore: number;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    await stock(t, seed.sellerToken, 'ORD-MUG', seed.warehouses.main, 10);
    await stock(t, seed.sellerToken, 'ORD-TEA', seed.warehouses.main, 4);
    const res = await t.app.inject({ method: 'POST', url: `/admin/accounts/${seed.accountId}/custom-stores`, headers: adminHeaders, payload: { name: 'Phone orders' } });
    assert.equal(res.statusCode, 201, res.body);
    phoneStore = (res.json() as { integrationId: number }).integrationId;
  });
  after(async () => t.close());

  const HEADER =
    'channel_order_id,order_ts,sku,quantity,unit_price,customer_name,customer_email,ship_name,ship_address1,ship_address2,ship_city,ship_state,ship_postal_code,ship_country,requested_service_level';
  const validate = (lines: string[]) => validationErrorLines(t, 'Orders', [HEADER, ...lines].join('\r\n'), { accountId: seed.accountId });
  const run = (lines: string[], fields: Record<string, string | number | boolean> = {}) =>
    importAndRun(t, seed.sellerToken, [HEADER, ...lines].join('\r\n'), { importType: 'Orders', ...fields });
  const orders = async (...ids: string[]): Promise<Order[]> => {
    const res = await t.app.inject({ url: `/v1/salesOrder?pageLength=100&channelOrderIds=${ids.map(encodeURIComponent).join(',')}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { results: Order[] }).results;
  };

  it('creates a multi-line order in the default store with routing and reservations; GET /v1/salesOrder shows the store as channel', async () => {
    const report = await run([
      'IMP-1,2026-11-20T10:00:00Z,ORD-MUG,2,12.50,Ada Buyer,ada@example.com,Ada Buyer,1 Main St,Apt 2,Springfield,IL,12345,US,Standard',
      'IMP-1,2026-11-20T10:00:00Z,ORD-TEA,1,3,Ada Buyer,ada@example.com,Ada Buyer,1 Main St,Apt 2,Springfield,IL,12345,US,Standard',
      'IMP-1,,ORD-UNKNOWN,1,,,,,,,,,,,', // order-level cells may stay blank after the first line
      'IMP-2,2026-11-21,ORD-MUG,1,,Bo,,,,,,,,,',
    ]);
    assert.equal(report.status, 'COMPLETE', JSON.stringify(report));
    assert.equal(report.importType, 'Orders');
    assert.equal(report.totalLines, 4);
    assert.equal(report.linesSuccessfullyProcessed, 4, await lineErrors(t, seed.sellerToken, report.reportId));
    const [one, two] = await orders('IMP-1', 'IMP-2').then((list) => ['IMP-1', 'IMP-2'].map((id) => list.find((o) => o.channelOrderId === id)));
    assert.ok(one && two);
    assert.equal(one.channel, 'Manual orders');
    assert.equal(one.status, 'PENDING');
    assert.equal(one.orderTs, '2026-11-20T10:00:00.000Z');
    assert.equal(one.customerName, 'Ada Buyer');
    assert.equal(one.customerEmail, 'ada@example.com');
    assert.equal(one.requestedServiceLevel, 'Standard');
    assert.deepEqual(one.shippingAddress, {
      name: 'Ada Buyer',
      company: null,
      addressLine1: '1 Main St',
      addressLine2: 'Apt 2',
      city: 'Springfield',
      state: 'IL',
      postalCode: '12345',
      phone: null,
      email: null,
      countryCode: 'US',
      type: null,
    });
    assert.deepEqual(
      one.products.map((p) => [p.requestedSku, p.sku, p.quantity, p.unitPrice]),
      [
        ['ORD-MUG', 'ORD-MUG', 2, 12.5],
        ['ORD-TEA', 'ORD-TEA', 1, 3],
        ['ORD-UNKNOWN', null, 1, null],
      ],
    );
    assert.deepEqual(routes(one.products[0]), { [seed.warehouses.main]: 2 });
    assert.deepEqual(routes(one.products[1]), { [seed.warehouses.main]: 1 });
    assert.deepEqual(one.products[2]!.routing_info, [], 'an unknown SKU stays on the order unrouted, as in POST /v1/salesOrder');
    assert.equal(two.orderTs, '2026-11-21T00:00:00.000Z', 'a date alone is midnight UTC');
    assert.equal(two.shippingAddress, null);
    assert.equal((await availableBySku(t, seed.sellerToken, 'ORD-MUG')).get(seed.warehouses.main), 7);
    assert.equal((await availableBySku(t, seed.sellerToken, 'ORD-TEA')).get(seed.warehouses.main), 3);
  });

  it('re-importing the same file changes nothing and reports each existing order on its lines', async () => {
    const lines = ['IMP-R,2026-11-20T10:00:00Z,ORD-MUG,1,,,,,,,,,,,', 'IMP-R,2026-11-20T10:00:00Z,ORD-TEA,1,,,,,,,,,,,'];
    const first = await run(lines);
    assert.equal(first.linesSuccessfullyProcessed, 2);
    const before = await orders('IMP-R');
    assert.deepEqual(await validate(lines), [2, 3], 'validation reports the existing order too');
    const again = await run(lines);
    assert.equal(again.status, 'COMPLETE');
    assert.equal(again.linesSuccessfullyProcessed, 0);
    assert.equal(again.linesWithErrors, 2);
    const errors = await lineErrors(t, seed.sellerToken, again.reportId);
    const number = before[0]!.orderNumber;
    assert.match(errors, new RegExp(`^2,channel_order_id,order "IMP-R" already exists in custom store "Manual orders" \\(order number ${number}\\); it is left unchanged`, 'm'));
    assert.match(errors, /^3,channel_order_id,order "IMP-R" already exists/m);
    assert.deepEqual(await orders('IMP-R'), before);
    assert.equal((await availableBySku(t, seed.sellerToken, 'ORD-MUG')).get(seed.warehouses.main), 6);
  });

  it('a named store receives the orders; the same channel_order_id is a separate order per store', async () => {
    const report = await run(['IMP-R,2026-11-20T10:00:00Z,ORD-MUG,1,,,,,,,,,,,'], { integrationId: phoneStore });
    assert.equal(report.linesSuccessfullyProcessed, 1, await lineErrors(t, seed.sellerToken, report.reportId));
    assert.equal(report.integrationId, phoneStore);
    const list = await orders('IMP-R');
    assert.deepEqual(list.map((o) => o.channel).sort(), ['Manual orders', 'Phone orders']);
  });

  it("an unknown or another account's integrationId is a 404 at POST /v1/report", async () => {
    const theirs = (await t.app.inject({ url: '/v1/customStores', headers: bearer(other.sellerToken) })).json() as { results: { integrationId: number }[] };
    const csv = `${HEADER}\nX,2026-11-20,ORD-MUG,1,,,,,,,,,,,\n`;
    assertV1Error(await postImport(t, seed.sellerToken, csv, { importType: 'Orders', integrationId: theirs.results[0]!.integrationId }), 404, /custom store/);
    assertV1Error(await postImport(t, seed.sellerToken, csv, { importType: 'Orders', integrationId: 999999 }), 404, /custom store/);
  });

  it('order-level cells that disagree with the first line refuse the whole order', async () => {
    const report = await run([
      'IMP-D,2026-11-20T10:00:00Z,ORD-MUG,1,,Ada,,,,,,,,,',
      'IMP-D,2026-11-20T11:00:00Z,ORD-TEA,1,,Ada,,,,,,,,,',
      'IMP-D,2026-11-20T10:00:00Z,ORD-TEA,1,,Bea,,,,,,,,,',
      'IMP-D2,2026-11-20T10:00:00Z,ORD-MUG,1,,,,,,,,,,,',
      'IMP-D2,2026-11-20T10:00:00Z,ORD-MUG,1,,Cy,,,,,,,,,', // blank on the first line, filled later
    ]);
    assert.equal(report.linesSuccessfullyProcessed, 0);
    assert.equal(report.linesWithErrors, 5);
    const errors = await lineErrors(t, seed.sellerToken, report.reportId);
    assert.match(errors, /^2,channel_order_id,order "IMP-D" is not created: line 3 has an error/m);
    assert.match(errors, /^3,order_ts,order_ts "2026-11-20T11:00:00Z" disagrees with the order: it is "2026-11-20T10:00:00Z" on the order's first line \(line 2\)/m);
    assert.match(errors, /^4,customer_name,customer_name "Bea" disagrees with the order/m);
    assert.match(errors, /^6,customer_name,customer_name "Cy" disagrees with the order: it is blank on the order's first line/m);
    assert.deepEqual(await orders('IMP-D', 'IMP-D2'), []);
  });

  it('a bad line refuses its order (every line errs, nothing created); non-consecutive lines are refused naming the first line', async () => {
    const file = [
      'IMP-B,2026-11-20T10:00:00Z,ORD-MUG,1,,,,,,,,,,,',
      'IMP-B,2026-11-20T10:00:00Z,ORD-TEA,0,,,,,,,,,,,', // quantity below 1
      'IMP-B3,,ORD-MUG,1,,,,,,,,,,,', // no order_ts
      'IMP-B4,2026-13-01,ORD-MUG,1,abc,,,Ann,,,,,,USA,', // bad date, price, incomplete address, country
      'IMP-C1,2026-11-20T10:00:00Z,ORD-MUG,1,,,,,,,,,,,',
      'IMP-C2,2026-11-20T10:00:00Z,ORD-MUG,1,,,,,,,,,,,',
      'IMP-C1,2026-11-20T10:00:00Z,ORD-TEA,1,,,,,,,,,,,',
      ',2026-11-20T10:00:00Z,ORD-TEA,1,,,,,,,,,,,',
    ];
    const validated = await validate(file);
    assert.deepEqual(await orders('IMP-C1', 'IMP-C2'), [], 'validation creates no order');
    const report = await run(file);
    assert.deepEqual(errorLinesOf(await lineErrors(t, seed.sellerToken, report.reportId)), validated, 'validation refuses exactly the lines the import refuses');
    assert.equal(report.totalLines, 8);
    assert.equal(report.linesSuccessfullyProcessed, 2);
    assert.equal(report.linesWithErrors, 6);
    const errors = await lineErrors(t, seed.sellerToken, report.reportId);
    assert.match(errors, /^2,channel_order_id,order "IMP-B" is not created: line 3 has an error/m);
    assert.match(errors, /^3,quantity,quantity must be from 1/m);
    assert.match(errors, /^4,order_ts,order_ts is required on the order's first line/m);
    assert.match(errors, /^5,order_ts,order_ts "2026-13-01" is not an RFC 3339 timestamp/m);
    assert.match(errors, /^5,unit_price,unit_price "abc" is not a decimal number/m);
    assert.match(errors, /^5,ship_country,ship_country must be exactly 2 characters/m);
    assert.match(errors, /^8,channel_order_id,the lines of order "IMP-C1" must be consecutive: the order starts at line 6/m);
    assert.match(errors, /^9,channel_order_id,channel_order_id is required/m);
    assert.deepEqual(await orders('IMP-B', 'IMP-B3', 'IMP-B4'), []);
    const c1 = (await orders('IMP-C1'))[0];
    assert.equal(c1?.products.length, 1);
    assert.equal((await orders('IMP-C2')).length, 1);
  });

  it('a ragged line refuses the order it belongs to instead of letting it be created without that line', async () => {
    const file = [
      'IMP-RAG,2026-11-20T10:00:00Z,ORD-MUG,1,,,,,,,,,,,',
      'IMP-RAG,2026-11-20T10:00:00Z,ORD-TEA,1', // the line lost its trailing fields
      'IMP-RAG2,2026-11-20T10:00:00Z,ORD-MUG,1,,,,,,,,,,,',
    ];
    const validated = await validate(file);
    const report = await run(file);
    const errors = await lineErrors(t, seed.sellerToken, report.reportId);
    assert.deepEqual(errorLinesOf(errors), validated, 'validation refuses exactly the lines the import refuses');
    assert.equal(report.linesSuccessfullyProcessed, 1);
    assert.equal(report.linesWithErrors, 2);
    assert.match(errors, /^2,channel_order_id,order "IMP-RAG" is not created: line 3 has an error/m);
    assert.match(errors, /^3,,the line has 4 fields but the header has 15/m);
    assert.deepEqual(await orders('IMP-RAG'), []);
    assert.equal((await orders('IMP-RAG2')).length, 1);
  });

  it('an order with more lines than one group may have is refused whole, also past the chunk that cut it', async () => {
    await stock(t, seed.sellerToken, 'ORD-HUGE', seed.warehouses.main, 100);
    const lines = Array.from({ length: 1600 }, () => 'HUGE,2026-11-20T10:00:00Z,ORD-HUGE,1,,,,,,,,,,,');
    lines.push('AFTER-HUGE,2026-11-20T10:00:00Z,ORD-HUGE,1,,,,,,,,,,,');
    const report = await run(lines);
    assert.equal(report.status, 'COMPLETE', JSON.stringify(report));
    assert.equal(report.totalLines, 1601);
    assert.equal(report.linesWithErrors, 1600);
    assert.equal(report.linesSuccessfullyProcessed, 1);
    assert.match(await lineErrors(t, seed.sellerToken, report.reportId), /^1502,,the lines of "HUGE" go on past 1,000 lines/m);
    assert.deepEqual(await orders('HUGE'), []);
    assert.equal((await orders('AFTER-HUGE')).length, 1);
  });

  it('an incomplete shipping address refuses the order', async () => {
    const report = await run(['IMP-A,2026-11-20T10:00:00Z,ORD-MUG,1,,,,Ann,,,Springfield,,,,']);
    assert.equal(report.linesWithErrors, 1);
    const errors = await lineErrors(t, seed.sellerToken, report.reportId);
    assert.match(errors, /^2,ship_address1,ship_address1 is required when the order has a shipping address/m);
    assert.match(errors, /^2,ship_postal_code,ship_postal_code is required/m);
    assert.deepEqual(await orders('IMP-A'), []);
  });

  it('an order straddling the first chunk boundary is created whole', async () => {
    await stock(t, seed.sellerToken, 'ORD-BULK', seed.warehouses.main, 10_000);
    // The first chunk's size is fixed (the later ones follow their time on SQLite).
    const first = chunkPacer(t.deps.db.dialect).lines;
    const lines: string[] = [];
    // Data lines 1..first-4 are one-line orders; the order BIG spans data lines first-3..first+6.
    for (let i = 1; i <= first - 4; i++) lines.push(`BULK-${i},2026-11-20T10:00:00Z,ORD-BULK,1,,,,,,,,,,,`);
    for (let i = 0; i < 10; i++) lines.push(`BIG,2026-11-20T10:00:00Z,ORD-BULK,${i + 1},,,,,,,,,,,`);
    for (let i = first - 3; i <= 510; i++) lines.push(`BULK-${i},2026-11-20T10:00:00Z,ORD-BULK,1,,,,,,,,,,,`);
    const report = await run(lines);
    assert.equal(report.status, 'COMPLETE', JSON.stringify(report));
    assert.equal(report.totalLines, 520);
    assert.equal(report.linesSuccessfullyProcessed, 520, await lineErrors(t, seed.sellerToken, report.reportId));
    const big = (await orders('BIG'))[0];
    assert.equal(big?.products.length, 10);
    assert.deepEqual(
      big.products.map((p) => p.quantity),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    assert.equal((await orders('BULK-1', `BULK-${first - 4}`, `BULK-${first - 3}`, 'BULK-510')).length, 4);
    assert.equal((await availableBySku(t, seed.sellerToken, 'ORD-BULK')).get(seed.warehouses.main), 10_000 - 510 - 55);
  });

  it("only the required columns are needed; the guide's sample file imports", async () => {
    const minimal = await importAndRun(t, seed.sellerToken, 'Channel Order ID,Order TS,SKU,Quantity\nIMP-MIN,2026-11-20,ORD-TEA,1\n', { importType: 'Orders' });
    assert.equal(minimal.linesSuccessfullyProcessed, 1, await lineErrors(t, seed.sellerToken, minimal.reportId));
    const sample = await importAndRun(t, seed.sellerToken, guideSamples()[1]!, { importType: 'Orders' });
    assert.equal(sample.linesSuccessfullyProcessed, 3, await lineErrors(t, seed.sellerToken, sample.reportId));
    const [order] = await orders('1001');
    assert.deepEqual(order?.products.map((p) => [p.requestedSku, p.quantity]), [['MUG-RED', 2], ['TEA-GREEN', 1]]);
  });

  it('a header without the needed columns fails the report', async () => {
    const report = await importAndRun(t, seed.sellerToken, 'channel_order_id,sku\nX,Y\n', { importType: 'Orders' });
    assert.equal(report.status, 'CANCELED');
    assert.match(report.errorMessage ?? '', /no order_ts or quantity column/);
  });
});
