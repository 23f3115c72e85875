import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AttributeInput, AttributeValue, ListingView, VariantView } from '../../src/domain/listings/model.js';
import { attributeText, CPSIA_WARNING_KEYS, renderListingV1 } from '../../src/domain/listings/v1-view.js';

const TS = '2026-01-01T00:00:00.000Z';

function attr(input: AttributeInput): AttributeValue {
  return { ...input, versionId: `v-${input.id}`, updatedAt: TS, submittedAt: null };
}

const group = (attributes: AttributeInput[]) => ({ enabled: true, attributes: attributes.map(attr), updatedAt: TS });

function variant(sku: string, parts: Partial<Record<'productData' | 'identifiers' | 'pricing', AttributeInput[]>> = {}, total = '7'): VariantView {
  return {
    sku,
    channelId: '',
    settings: {},
    inventory: {
      enabled: true,
      totalQuantity: total,
      merchantFulfillableQuantity: total,
      merchantFulfillableWarehouseQuantities: [],
      storefrontFulfillableQuantity: '0',
      updatedAt: TS,
      updatedExternallyAt: null,
    },
    identifiers: group(parts.identifiers ?? []),
    productData: group(parts.productData ?? []),
    logistics: group([]),
    pricing: { ...group(parts.pricing ?? []), sales: [] },
  };
}

function listing(attributes: AttributeInput[], variants: VariantView[]): ListingView {
  return {
    id: '42',
    sku: 'GROUP-1',
    productData: {
      enabled: true,
      categoryId: 'cat-9',
      productTypeId: 'shirt',
      pivotAttributes: ['color'],
      attributes: attributes.map(attr),
      updatedAt: TS,
      swatchImageAttributeId: [],
      standaloneVariants: false,
      baseListingSku: '',
      retireBaseParent: false,
    },
    variants,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-02T00:00:00.000Z',
  };
}

describe('renderListingV1 (document 2.1 from the v2 view)', () => {
  it('renders every 2.1 field with the document names exactly', () => {
    const view = listing(
      [
        { id: 'title', textValue: 'Red shirt' },
        { id: 'description', textValue: 'Soft' },
        { id: 'tags', multiTextValue: { values: ['red', 'cotton'] } },
        { id: 'primary_image', textValue: 'https://img.example/1.jpg' },
        { id: 'cpsia_warnings', multiTextValue: { values: ['choking hazard balloon', 'Choking Hazard Small Parts'] } },
        { id: 'prop65_required', textValue: 'true' },
        { id: 'prop65_type', textValue: 'CANCER' },
        { id: 'prop65_chemicals', multiTextValue: { values: ['lead', 'bpa'] } },
        { id: 'brand', textValue: 'Acme' },
      ],
      [
        variant('RED-S', {
          productData: [
            { id: 'color', textValue: 'red' },
            { id: 'size', textValue: 'S' },
            { id: 'images', multiTextValue: { values: ['https://img.example/a.jpg', 'https://img.example/b.jpg'] } },
            { id: 'manufacturer', textValue: 'Acme Works' },
            { id: 'weight', numericWithUnitsValue: { numeric: 1.5, units: 'kg' } },
          ],
          identifiers: [
            { id: 'ean', textValue: '4006381333931' },
            { id: 'upc', textValue: '012345678905' },
          ],
          pricing: [
            { id: 'current_selling_price', moneyValue: { amount: '19.99', currencyCode: 'USD' } },
            { id: 'msrp', numericValue: 25 },
          ],
        }),
      ],
    );
    const v1 = renderListingV1(view);
    assert.deepEqual(Object.keys(v1).sort(), [
      'category',
      'cpsia_warnings',
      'created_at',
      'description',
      'id',
      'pivot_attributes',
      'primary_image',
      'prop65',
      'sku',
      'tags',
      'title',
      'updated_at',
      'variants',
    ]);
    assert.equal(v1.id, '42');
    assert.equal(v1.sku, 'GROUP-1');
    assert.equal(v1.title, 'Red shirt');
    assert.equal(v1.description, 'Soft');
    assert.equal(v1.tags, 'red, cotton');
    assert.equal(v1.category, 'cat-9');
    assert.deepEqual(v1.pivot_attributes, ['color']);
    assert.deepEqual(v1.primary_image, { url: 'https://img.example/1.jpg', hash: '' });
    assert.equal(v1.created_at, '2026-01-01T00:00:00.000Z');
    assert.equal(v1.updated_at, '2026-01-02T00:00:00.000Z');
    assert.deepEqual(v1.cpsia_warnings, {
      'choking hazard balloon': true,
      'choking hazard contains a marble': false,
      'choking hazard contains a small ball': false,
      'choking hazard is a marble': false,
      'choking hazard is a small ball': false,
      'choking hazard small parts': true,
    });
    assert.deepEqual(v1.prop65, { required: true, type: 'CANCER', chemicals: ['lead', 'bpa'] });

    const [v] = v1.variants;
    assert.ok(v);
    assert.deepEqual(Object.keys(v).sort(), [
      'available_inventory',
      'brand',
      'condition',
      'condition_description',
      'images',
      'listing_data',
      'manufacturer',
      'model_number',
      'pricing',
      'primary_image',
      'sku',
      'standard_identifier',
      'standard_identifier_type',
    ]);
    assert.equal(v.sku, 'RED-S');
    assert.equal(v.available_inventory, 7);
    assert.deepEqual(v.pricing, { current_selling_price: 19.99, msrp: 25, map: null, pricing: null });
    // upc comes before ean in the identifier order, whatever the attribute order.
    assert.equal(v.standard_identifier, '012345678905');
    assert.equal(v.standard_identifier_type, 'UPC');
    assert.deepEqual(v.images, [
      { url: 'https://img.example/a.jpg', hash: '' },
      { url: 'https://img.example/b.jpg', hash: '' },
    ]);
    // No variant primary_image: the first of its images.
    assert.deepEqual(v.primary_image, { url: 'https://img.example/a.jpg', hash: '' });
    assert.equal(v.brand, 'Acme', 'listing fallback');
    assert.equal(v.manufacturer, 'Acme Works', 'variant value');
    assert.equal(v.model_number, '');
    assert.equal(v.condition, '');
    assert.equal(v.condition_description, '');
    assert.deepEqual(v.listing_data, [
      { attribute: 'color', value: 'red' },
      { attribute: 'size', value: 'S' },
      { attribute: 'weight', value: '1.5 kg' },
    ]);
  });

  it('has every cpsia key false, empty texts and no image when nothing is set', () => {
    const v1 = renderListingV1(listing([], [variant('A', {}, '0')]));
    assert.deepEqual(Object.keys(v1.cpsia_warnings), [...CPSIA_WARNING_KEYS]);
    assert.ok(Object.values(v1.cpsia_warnings).every((w) => w === false));
    assert.equal(v1.title, '');
    assert.equal(v1.tags, '');
    assert.deepEqual(v1.primary_image, { url: '', hash: '' });
    assert.deepEqual(v1.prop65, { required: false, type: '', chemicals: [] });
    const [v] = v1.variants;
    assert.equal(v?.available_inventory, 0);
    assert.deepEqual(v?.primary_image, { url: '', hash: '' });
    assert.deepEqual(v?.images, []);
    assert.deepEqual(v?.listing_data, []);
    assert.equal(v?.standard_identifier, '');
    assert.equal(v?.standard_identifier_type, '');
  });

  it('falls back to the catalog identifiers and to the first variant for listing text and image', () => {
    const view = listing(
      [{ id: 'prop65_required', numericValue: 0 }],
      [
        variant('A', { productData: [{ id: 'color', textValue: 'blue' }] }),
        variant('B', {
          productData: [
            { id: 'title', textValue: 'Variant title' },
            { id: 'primary_image', multiObjectValue: { items: [{ properties: { url: { textValue: 'https://i/x.png' }, hash: { textValue: 'abc' } } }] } },
          ],
        }),
      ],
    );
    const v1 = renderListingV1(view, new Map([['A', { standardProductId: '9780306406157', standardProductIdType: 'ISBN' }]]));
    assert.equal(v1.title, 'Variant title');
    assert.deepEqual(v1.primary_image, { url: 'https://i/x.png', hash: 'abc' });
    assert.equal(v1.prop65.required, false);
    assert.equal(v1.variants[0]?.standard_identifier, '9780306406157');
    assert.equal(v1.variants[0]?.standard_identifier_type, 'ISBN');
    // A's own image is absent and it has no images: the listing-level image (also absent) → empty.
    assert.deepEqual(v1.variants[0]?.primary_image, { url: '', hash: '' });
    assert.deepEqual(v1.variants[1]?.primary_image, { url: 'https://i/x.png', hash: 'abc' });
    assert.equal(v1.variants[1]?.standard_identifier, '');
    // title on a variant is not a v1 variant field: it is listing data.
    assert.deepEqual(v1.variants[1]?.listing_data, [{ attribute: 'title', value: 'Variant title' }]);
  });

  it('renders every value kind as one line of text', () => {
    assert.equal(attributeText({ textValue: 'x' }), 'x');
    assert.equal(attributeText({ numericValue: 2.5 }), '2.5');
    assert.equal(attributeText({ numericWithUnitsValue: { numeric: 3, units: 'cm' } }), '3 cm');
    assert.equal(attributeText({ multiTextValue: { values: ['a', 'b'] } }), 'a, b');
    assert.equal(attributeText({ moneyValue: { amount: '10.00', currencyCode: 'EUR' } }), '10.00 EUR');
    assert.equal(
      attributeText({ multiObjectValue: { items: [{ properties: { k: { textValue: 'v' } } }] } }),
      '[{"properties":{"k":{"textValue":"v"}}}]',
    );
  });
});
