import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { productSearchRows, productSearchTerms } from '../../src/domain/catalog/product-search.js';

describe('catalog search terms', () => {
  it("a product's words: its SKU's (and run together), its title's and its brand's, lower case, accents dropped", () => {
    assert.deepEqual(productSearchTerms({ sku: 'MUG-BLUE-01', title: 'Blue Mug, large', brand: 'Café Pottery' }).sort(), ['01', 'blue', 'cafe', 'large', 'mug', 'mugblue01', 'pottery'].sort());
  });

  it('a bare product (no title, no brand) is found by its SKU; a one-word SKU is not repeated', () => {
    assert.deepEqual(productSearchTerms({ sku: 'ABC100', title: null, brand: null }), ['abc100']);
  });

  it('punctuation alone gives no term; long words are cut at 64 characters', () => {
    assert.deepEqual(productSearchTerms({ sku: '---', title: '%%', brand: ' _ ' }), []);
    const long = 'x'.repeat(100);
    assert.deepEqual(productSearchTerms({ sku: long, title: null, brand: null }), ['x'.repeat(64)]);
  });

  it('rows carry the account and the product', () => {
    assert.deepEqual(productSearchRows(7, [{ id: 3, sku: 'A-1', title: 'Tea', brand: null }]), [
      { account_id: 7, term: 'a', product_id: 3 },
      { account_id: 7, term: '1', product_id: 3 },
      { account_id: 7, term: 'a1', product_id: 3 },
      { account_id: 7, term: 'tea', product_id: 3 },
    ]);
  });
});
