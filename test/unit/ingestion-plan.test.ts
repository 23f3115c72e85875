import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../src/domain/errors.js';
import { moneyAmountFromUnitsNanos, normaliseIngestionListing, type IngestionListing } from '../../src/domain/listings/ingestion-listing.js';
import { planIngestion, type PlanFacts } from '../../src/domain/listings/ingestion-plan.js';

function field(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, 'INVALID_ARGUMENT');
    return error.violations[0]!.field;
  }
  assert.fail('expected an INVALID_ARGUMENT');
}

describe('moneyAmountFromUnitsNanos (google.type.Money → decimal string)', () => {
  it('joins units and nanos exactly, trimming trailing zeros', () => {
    assert.equal(moneyAmountFromUnitsNanos('12', 500_000_000), '12.5');
    assert.equal(moneyAmountFromUnitsNanos(12, 0), '12');
    assert.equal(moneyAmountFromUnitsNanos('0', 1), '0.000000001');
    assert.equal(moneyAmountFromUnitsNanos('19', 990_000_000), '19.99');
    assert.equal(moneyAmountFromUnitsNanos(undefined, undefined), '0');
    assert.equal(moneyAmountFromUnitsNanos('0', '250000000'), '0.25');
  });

  it('keeps the sign for credits, including units 0 with negative nanos', () => {
    assert.equal(moneyAmountFromUnitsNanos('-3', -250_000_000), '-3.25');
    assert.equal(moneyAmountFromUnitsNanos('0', -500_000_000), '-0.5');
    assert.equal(moneyAmountFromUnitsNanos('-7', 0), '-7');
    assert.equal(moneyAmountFromUnitsNanos('-0', 0), '0');
  });

  it('handles the whole int64 range without floats', () => {
    assert.equal(moneyAmountFromUnitsNanos('9223372036854775807', 999_999_999), '9223372036854775807.999999999');
    assert.equal(moneyAmountFromUnitsNanos('-9223372036854775808', -999_999_999), '-9223372036854775808.999999999');
  });

  it('refuses nanos out of range, signs that disagree and units that are not int64', () => {
    assert.equal(field(() => moneyAmountFromUnitsNanos('1', 1_000_000_000)), 'price.nanos');
    assert.equal(field(() => moneyAmountFromUnitsNanos('1', -1_000_000_000)), 'price.nanos');
    assert.equal(field(() => moneyAmountFromUnitsNanos('1', -1)), 'price.nanos');
    assert.equal(field(() => moneyAmountFromUnitsNanos('-1', 1)), 'price.nanos');
    assert.equal(field(() => moneyAmountFromUnitsNanos('9223372036854775808', 0)), 'price.units');
    assert.equal(field(() => moneyAmountFromUnitsNanos('1.5', 0)), 'price.units');
    assert.equal(field(() => moneyAmountFromUnitsNanos(1.5, 0)), 'price.units');
    assert.equal(field(() => moneyAmountFromUnitsNanos('1', 0.5)), 'price.nanos');
    assert.equal(field(() => moneyAmountFromUnitsNanos('1', -2, 'variants[3].price')), 'variants[3].price.nanos');
  });
});

describe('normaliseIngestionListing', () => {
  const variant = (sku: string, extra: Record<string, unknown> = {}) => ({ sku, ...extra });

  it('normalises snake_case names, the price and attribute values', () => {
    const out = normaliseIngestionListing({
      id: 'G-1',
      product_type_id: 'shirts',
      pivot_attributes: ['color'],
      attributes: [{ id: 'title', text_value: 'Shirt' }],
      variants: [
        {
          sku: 'S-RED',
          price: { currency_code: 'USD', units: '19', nanos: 990000000 },
          attributes: [{ id: 'msrp', moneyValue: { amount: 25.5, currencyCode: 'USD' } }],
        },
        variant('S-BLUE'),
      ],
    });
    assert.deepEqual(out, {
      id: 'G-1',
      productTypeId: 'shirts',
      pivotAttributes: ['color'],
      attributes: [{ id: 'title', textValue: 'Shirt' }],
      variants: [
        { sku: 'S-RED', price: { amount: '19.99', currencyCode: 'USD' }, attributes: [{ id: 'msrp', moneyValue: { amount: '25.5', currencyCode: 'USD' } }] },
        { sku: 'S-BLUE', price: null, attributes: [] },
      ],
    } satisfies IngestionListing);
  });

  it('names the field of each malformed listing', () => {
    assert.equal(field(() => normaliseIngestionListing({ variants: [variant('A')] })), 'id');
    assert.equal(field(() => normaliseIngestionListing({ id: '  ', variants: [variant('A')] })), 'id');
    assert.equal(field(() => normaliseIngestionListing({ id: 'G' })), 'variants');
    assert.equal(field(() => normaliseIngestionListing({ id: 'G', variants: [] })), 'variants');
    assert.equal(field(() => normaliseIngestionListing({ id: 'G', variants: [variant('A'), variant('')] })), 'variants[1].sku');
    assert.equal(field(() => normaliseIngestionListing({ id: 'G', variants: [variant('A'), variant('A')] })), 'variants[1].sku');
    assert.equal(field(() => normaliseIngestionListing({ id: 'G', variants: [{ sku: 'A', price: { currencyCode: 'US', units: '1' } }] })), 'variants[0].price.currencyCode');
    assert.equal(field(() => normaliseIngestionListing({ id: 'G', variants: [{ sku: 'A', price: { units: '1' } }] })), 'variants[0].price.currencyCode');
    assert.equal(field(() => normaliseIngestionListing({ id: 'G', variants: [{ sku: 'A', price: { currencyCode: 'USD', units: '1', nanos: -5 } }] })), 'variants[0].price.nanos');
    assert.equal(field(() => normaliseIngestionListing({ id: 'G', attributes: [{ id: 'x' }], variants: [variant('A')] })), 'attributes[0]');
    assert.equal(
      field(() => normaliseIngestionListing({ id: 'G', variants: [{ sku: 'A', attributes: [{ id: 'x', textValue: 'a', numericValue: 1 }] }] })),
      'variants[0].attributes[0]',
    );
    assert.equal(field(() => normaliseIngestionListing({ id: 'x'.repeat(256), variants: [variant('A')] })), 'id');
  });
});

describe('planIngestion', () => {
  const listing = (id: string, skus: string[]): IngestionListing => ({
    id,
    productTypeId: '',
    pivotAttributes: [],
    attributes: [],
    variants: skus.map((sku) => ({ sku, price: null, attributes: [] })),
  });
  const facts = (f: Partial<PlanFacts> = {}): PlanFacts => ({ listings: new Map(), variants: new Map(), products: new Set(), ...f });

  it('creates new listings, matching catalog products by SKU and creating the others', () => {
    const plan = planIngestion([listing('G1', ['A', 'B'])], { expected: 1, actual: 1, received: 1 }, facts({ products: new Set(['A']) }));
    assert.deepEqual(plan.listings, [
      {
        externalId: 'G1',
        action: 'CREATE',
        listingId: null,
        variants: [
          { sku: 'A', action: 'MATCH', productExists: true, onListing: false, channelId: 'A' },
          { sku: 'B', action: 'CREATE_PRODUCT', productExists: false, onListing: false, channelId: 'B' },
        ],
        conflicts: [],
      },
    ]);
    assert.deepEqual(plan.conflicts, []);
    assert.deepEqual(plan.summary, {
      listings: 1,
      listingsToCreate: 1,
      listingsToUpdate: 0,
      listingsSkipped: 0,
      variants: 2,
      variantsToAdd: 2,
      variantsToAttach: 0,
      variantsSkipped: 0,
      productsToCreate: 1,
      conflicts: 0,
    });
  });

  it('updates a listing with the same group SKU: attaches its variants, adds missing ones', () => {
    const plan = planIngestion(
      [listing('G1', ['A', 'C'])],
      { expected: 1, actual: 1, received: 1 },
      facts({ listings: new Map([['G1', 7]]), variants: new Map([['A', { listingId: 7, listingSku: 'G1' }]]), products: new Set(['A']) }),
    );
    assert.equal(plan.listings[0]!.action, 'UPDATE');
    assert.equal(plan.listings[0]!.listingId, 7);
    assert.deepEqual(
      plan.listings[0]!.variants.map((v) => [v.sku, v.action, v.onListing]),
      [
        ['A', 'MATCH', true],
        ['C', 'CREATE_PRODUCT', false],
      ],
    );
    assert.equal(plan.summary.variantsToAttach, 1);
    assert.equal(plan.summary.variantsToAdd, 1);
  });

  it('skips variants listed elsewhere or pushed twice, and listings left with none', () => {
    const plan = planIngestion(
      [listing('G1', ['A', 'B']), listing('G2', ['B']), listing('G3', ['D'])],
      { expected: 3, actual: 3, received: 3 },
      facts({
        variants: new Map([
          ['A', { listingId: 9, listingSku: 'OTHER' }],
          ['D', { listingId: null, listingSku: null }],
        ]),
      }),
    );
    assert.deepEqual(
      plan.listings.map((l) => [l.externalId, l.action, l.variants.map((v) => v.sku), l.conflicts.map((c) => c.type)]),
      [
        ['G1', 'CREATE', ['B'], ['SKU_LISTED_ELSEWHERE']],
        ['G2', 'SKIP', [], ['DUPLICATE_SKU_IN_INGESTION', 'NO_VARIANTS_LEFT']],
        ['G3', 'SKIP', [], ['SKU_LISTED_ELSEWHERE', 'NO_VARIANTS_LEFT']],
      ],
    );
    assert.match(plan.listings[0]!.conflicts[0]!.message, /listing OTHER \(id 9\)/);
    assert.match(plan.listings[2]!.conflicts[0]!.message, /deleted listing/);
    assert.deepEqual(plan.conflicts[0], plan.listings[0]!.conflicts[0]);
    assert.equal(plan.conflicts.length, 5);
    assert.equal(plan.summary.variantsSkipped, 3);
    assert.equal(plan.summary.listingsSkipped, 2);
  });

  it('reports count mismatches at session level', () => {
    const plan = planIngestion([listing('G1', ['A'])], { expected: 5, actual: 2, received: 1 }, facts());
    assert.deepEqual(
      plan.conflicts.map((c) => c.type),
      ['COUNT_MISMATCH', 'EXPECTED_COUNT_MISMATCH'],
    );
    assert.equal(plan.listings[0]!.action, 'CREATE', 'what arrived is still planned');
  });
});
