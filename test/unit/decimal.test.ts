import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decimalInput } from '../../src/domain/decimal-input.js';
import { AppError } from '../../src/domain/errors.js';
import { linesTotal, orderSortTotal } from '../../src/domain/orders/order-search.js';
import { salesOfScaled, scaledSales } from '../../src/domain/orders/order-day-figures.js';
import {
  add,
  compare,
  decimalOutput,
  decimalPlaces,
  divideToScale,
  isPlainDecimal,
  max,
  moneyAmountText,
  multiply,
  negate,
  normalizeDecimal,
  roundingTo,
  roundToScale,
  signOf,
  subtract,
  sum,
  twentyDigits,
} from '../../src/lib/decimal.js';

describe('decimal input (API values to stored decimal strings)', () => {
  it('keeps numbers and decimal strings exact', () => {
    assert.equal(decimalInput('x', 19.99), '19.99');
    assert.equal(decimalInput('x', 0.1), '0.1');
    assert.equal(decimalInput('x', -3), '-3');
    assert.equal(decimalInput('x', '007.50'), '7.5');
    assert.equal(decimalInput('x', '-0.00'), '0');
    assert.equal(decimalInput('x', '123456789012345678.123456789'), '123456789012345678.123456789');
    assert.equal(decimalInput('x', null), null);
    assert.equal(decimalInput('x', undefined), null);
    assert.equal(normalizeDecimal('10.0'), '10');
    assert.equal(decimalOutput('12.5'), 12.5);
    assert.equal(decimalOutput(null), null);
  });

  it('refuses what is not a plain decimal', () => {
    for (const bad of ['abc', '1e5', '', '1.', '.5', Number.NaN, Number.POSITIVE_INFINITY, 1e21, 1e-7]) {
      assert.throws(() => decimalInput('price', bad), (e: unknown) => e instanceof AppError && e.code === 'INVALID_ARGUMENT' && e.message.startsWith('price: '));
    }
  });

  it('says why, naming the value as it was sent', () => {
    const message = (value: number | string) => {
      try {
        decimalInput('amount', value);
      } catch (e) {
        return (e as AppError).message;
      }
      return null;
    };
    assert.equal(message('1e3'), 'amount: "1e3" is not a decimal number');
    assert.equal(message(' 1.5 '), null, 'surrounding blanks are trimmed');
    assert.equal(message(1e21), 'amount: 1e+21 is outside the supported decimal range');
    assert.equal(message(Number.NaN), 'amount: must be a finite number');
  });
});

describe('the decimal module: text', () => {
  it('knows a plain decimal: no exponent, no bare point, no blanks', () => {
    for (const good of ['0', '-0', '12', '-3.5', '007.50', '123456789012345678901234567890.123456789']) assert.equal(isPlainDecimal(good), true, good);
    for (const bad of ['', '1e3', '1E3', '1.', '.5', '+1', ' 1', '1 ', '0x10', '1,5', 'NaN', 'Infinity', '--1']) assert.equal(isPlainDecimal(bad), false, bad);
  });

  it('normalizes without changing the value', () => {
    assert.equal(normalizeDecimal('007.50'), '7.5');
    assert.equal(normalizeDecimal('-0'), '0');
    assert.equal(normalizeDecimal('-0.000'), '0');
    assert.equal(normalizeDecimal('-00.10'), '-0.1');
    assert.equal(normalizeDecimal('0.5'), '0.5');
    assert.equal(normalizeDecimal('100'), '100');
  });

  it('counts the decimals as written', () => {
    assert.equal(decimalPlaces('12'), 0);
    assert.equal(decimalPlaces('1.250'), 3);
    assert.equal(decimalPlaces('-0.0001'), 4);
  });
});

describe('moneyAmountText (v2 Money amount rendering, resolutions §7)', () => {
  it('pads to two decimals and never rounds or trims', () => {
    assert.equal(moneyAmountText('13'), '13.00');
    assert.equal(moneyAmountText('0'), '0.00');
    assert.equal(moneyAmountText('-5.5'), '-5.50');
    assert.equal(moneyAmountText('12.5'), '12.50');
    assert.equal(moneyAmountText('19.99'), '19.99');
    assert.equal(moneyAmountText('1.255'), '1.255');
    assert.equal(moneyAmountText('10.000'), '10.000');
    assert.equal(moneyAmountText('123456789012345678.1'), '123456789012345678.10');
  });

  it('leaves anything that is not a plain decimal as it is', () => {
    assert.equal(moneyAmountText(''), '');
    assert.equal(moneyAmountText('1e3'), '1e3');
  });
});

describe('the decimal module: exact arithmetic', () => {
  it('adds, subtracts and multiplies without floats or rounding, answering normalized text', () => {
    assert.equal(add('0.1', '0.2'), '0.3');
    assert.equal(add('10.50', '2.50'), '13');
    assert.equal(add('-5', '5'), '0');
    assert.equal(add('-0.5', '0.25'), '-0.25');
    assert.equal(add('123456789012345678.123456789', '0.876543211'), '123456789012345679');
    assert.equal(add('99999999999999999999999999999999', '1'), '100000000000000000000000000000000');
    assert.equal(subtract('1', '0.9999999999999999999999999'), '0.0000000000000000000000001');
    assert.equal(subtract('0', '3.50'), '-3.5');
    assert.equal(multiply('19.99', 3), '59.97');
    assert.equal(multiply('-2.5', 4), '-10');
    assert.equal(multiply('0.1', '0.1'), '0.01');
    assert.equal(multiply('123456789012345678.123456789', 1000), '123456789012345678123.456789');
    assert.equal(sum([]), '0');
    assert.equal(sum(['1.10', '2.20', '-0.30']), '3');
    assert.equal(negate('0'), '0');
    assert.equal(negate('-1.50'), '1.5');
  });

  it('reads numbers from numeric columns as their decimal text', () => {
    assert.equal(add(0.1, 0.2), '0.3');
    assert.equal(multiply(19.99, 100), '1999');
  });

  it('compares', () => {
    assert.equal(compare('1.0', '1'), 0);
    assert.equal(compare('-0', '0'), 0);
    assert.equal(compare('999999999.9999', 1_000_000_000), -1);
    assert.equal(compare('1000000000', 1_000_000_000), 0);
    assert.equal(compare('10', '9.99999999999999999999'), 1);
    assert.equal(signOf('-0.0001'), -1);
    assert.equal(signOf('0.000'), 0);
    assert.equal(signOf('3'), 1);
    assert.equal(max('-1', 0), '0');
    assert.equal(max('2.50', '2.4'), '2.5');
  });

  it('rounds to a scale down (toward zero) or half up (halves away from zero)', () => {
    assert.equal(roundToScale('0.00005', 4, 'half-up'), '0.0001');
    assert.equal(roundToScale('0.00004999', 4, 'half-up'), '0');
    assert.equal(roundToScale('-0.00005', 4, 'half-up'), '-0.0001');
    assert.equal(roundToScale('-0.00004', 4, 'half-up'), '0');
    assert.equal(roundToScale('2.5', 0, 'half-up'), '3');
    assert.equal(roundToScale('-2.5', 0, 'half-up'), '-3');
    assert.equal(roundToScale('3.99999', 4, 'down'), '3.9999');
    assert.equal(roundToScale('-3.99999', 4, 'down'), '-3.9999');
  });

  it('divides to a scale from the exact quotient', () => {
    assert.equal(divideToScale('10', 3, 4, 'down'), '3.3333');
    assert.equal(divideToScale('20', 3, 4, 'down'), '6.6666');
    assert.equal(divideToScale('20', 3, 4, 'half-up'), '6.6667');
    assert.equal(divideToScale('1', 8, 2, 'half-up'), '0.13', '0.125: a half goes up');
    assert.equal(divideToScale('-1', 8, 2, 'half-up'), '-0.13', 'and away from zero below zero');
    assert.equal(divideToScale('1', -8, 2, 'half-up'), '-0.13');
    assert.equal(divideToScale('-1', -8, 2, 'half-up'), '0.13');
    assert.equal(divideToScale('-10', 3, 4, 'down'), '-3.3333');
    assert.equal(divideToScale('0', 7, 4, 'half-up'), '0');
    assert.equal(divideToScale('12.5', 1, 4, 'down'), '12.5');
    // A quotient far longer than any float holds, still cut exactly at the 4th decimal.
    assert.equal(divideToScale('99999999999999999999999999.99995', 1, 4, 'half-up'), '100000000000000000000000000');
    assert.equal(divideToScale('99999999999999999999999999.99995', 1, 4, 'down'), '99999999999999999999999999.9999');
    assert.throws(() => divideToScale('1', 0, 4, 'down'), RangeError);
  });
});

describe('the decimal module: totals kept to 20 significant digits', () => {
  it('rounds every result to the context’s significant digits, halves away from zero', () => {
    assert.equal(twentyDigits.add('12345678901234567890', '0.5'), '12345678901234567891');
    assert.equal(twentyDigits.multiply('123456789012345678.123456789', 1), '123456789012345678.12');
    assert.equal(twentyDigits.sum(['0.1', '0.2']), '0.3');
    assert.equal(roundingTo(3).add('1.234', '0'), '1.23');
    assert.equal(roundingTo(3).subtract('-1.235', '0'), '-1.24');
    assert.equal(roundingTo(20), twentyDigits);
  });

  it('gives the order list Total and its sort from priced lines only', () => {
    const line = (quantity: number, unit_price: string | null) => ({ requested_sku: 'A', sku: 'A', quantity, unit_price });
    assert.equal(linesTotal([]), null);
    assert.equal(linesTotal([line(2, null)]), null);
    assert.equal(orderSortTotal([line(2, null)]), '0');
    assert.equal(linesTotal([line(2, '12.50'), line(1, null), line(3, '0.10')]), '25.3');
    assert.equal(orderSortTotal([line(2, '-12.50'), line(1, '25')]), '0');
  });

  it('scales the home chart’s sales to units of 1/10,000 and back', () => {
    assert.equal(scaledSales('-0.00005'), '-1');
    assert.equal(salesOfScaled('0'), '0');
    assert.equal(salesOfScaled('125000'), '12.5');
    assert.equal(salesOfScaled('-1'), '-0.0001');
    assert.equal(salesOfScaled('12345678901234567890123'), '1234567890123456789.0123');
  });
});
