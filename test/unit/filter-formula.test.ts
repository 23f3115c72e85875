import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FilterFormulaError,
  MAX_FILTER_LENGTH,
  parseFilterFormula,
  type FilterField,
  type FilterRecord,
} from '../../src/domain/reports/filter-formula.js';

const FIELDS: FilterField[] = [
  { name: 'sku', type: 'string' },
  { name: 'title', type: 'string' },
  { name: 'brand', type: 'string' },
  { name: 'price', type: 'number' },
  { name: 'msrp', type: 'number' },
  { name: 'active', type: 'boolean' },
  { name: 'updated_at', type: 'timestamp' },
];

const product: FilterRecord = {
  fields: {
    sku: 'AB-100',
    title: "O'Brien Tweed Jacket",
    brand: 'Acme',
    price: '12.50',
    msrp: 20,
    active: true,
    updated_at: '2026-03-10T08:00:00.000Z',
  },
  attributes: { color: 'Red', 'size eu': '42', quote: 'say "hi"' },
};

const blankProduct: FilterRecord = {
  fields: { sku: 'B-1', title: '', brand: null, price: null, active: null, updated_at: '' },
  attributes: {},
};

function matches(formula: string, record: FilterRecord = product): boolean {
  return parseFilterFormula(formula, FIELDS).matches(record);
}

function assertFails(formula: string, position: number, message: string | RegExp, fields: readonly FilterField[] = FIELDS): void {
  assert.throws(() => parseFilterFormula(formula, fields), (error: unknown) => {
    assert.ok(error instanceof FilterFormulaError, `expected a FilterFormulaError, got ${String(error)}`);
    assert.equal(error.position, position, error.message);
    if (typeof message === 'string') assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

test('numbers compare numerically, whether stored as numbers or decimal strings', () => {
  assert.equal(matches('price = 12.5'), true);
  assert.equal(matches('price = 12.50'), true);
  assert.equal(matches('price = "12.5"'), true, 'a numeric text literal is a number');
  assert.equal(matches('price != 12.5'), false);
  assert.equal(matches('price <> 13'), true);
  assert.equal(matches('price < 12.51'), true);
  assert.equal(matches('price < 12.5'), false);
  assert.equal(matches('price <= 12.5'), true);
  assert.equal(matches('price > 9'), true, 'numerically, not as text ("12.50" < "9")');
  assert.equal(matches('price > 12.5'), false);
  assert.equal(matches('price >= 12.5'), true);
  assert.equal(matches('msrp > -3.5'), true);
  assert.equal(matches('msrp < .5'), false);
  assert.equal(matches('msrp = 20'), true);
  assert.equal(matches('msrp>19.99'), true, 'no spaces needed around operators');
});

test('text equality and ordering ignore case', () => {
  assert.equal(matches('brand = "ACME"'), true);
  assert.equal(matches("brand = 'acme'"), true);
  assert.equal(matches('brand != "aCmE"'), false);
  assert.equal(matches('brand <> "Other"'), true);
  assert.equal(matches('brand < "B"'), true);
  assert.equal(matches('brand <= "acme"'), true);
  assert.equal(matches('brand > "ab"'), true);
  assert.equal(matches('brand >= "ACMF"'), false);
});

test('CONTAINS, STARTS WITH and ENDS WITH match text ignoring case', () => {
  assert.equal(matches('title CONTAINS "tweed"'), true);
  assert.equal(matches('title CONTAINS "wool"'), false);
  assert.equal(matches('title STARTS WITH "o\'brien"'), true);
  assert.equal(matches('title STARTS WITH "tweed"'), false);
  assert.equal(matches('title ENDS WITH "JACKET"'), true);
  assert.equal(matches('title ENDS WITH "coat"'), false);
  assert.equal(matches('attribute("color") contains "E"'), true);
});

test('IN matches any listed value, with the field type\'s comparison', () => {
  assert.equal(matches('brand IN ("Globex", "ACME")'), true);
  assert.equal(matches('brand IN ("Globex")'), false);
  assert.equal(matches('price IN (1, 12.5, 99)'), true);
  assert.equal(matches('price IN (1, "12.50")'), true);
  assert.equal(matches('active IN (TRUE)'), true);
  assert.equal(matches('updated_at IN ("2026-03-10T09:00:00+01:00")'), true);
});

test('IS BLANK and IS NOT BLANK: null, the empty string and a missing value are blank', () => {
  assert.equal(matches('brand IS BLANK', blankProduct), true, 'null');
  assert.equal(matches('title IS BLANK', blankProduct), true, 'empty string');
  assert.equal(matches('msrp IS BLANK', blankProduct), true, 'absent from the record');
  assert.equal(matches('updated_at IS BLANK', blankProduct), true);
  assert.equal(matches('attribute("color") IS BLANK', blankProduct), true);
  assert.equal(matches('sku IS NOT BLANK', blankProduct), true);
  assert.equal(matches('brand IS NOT BLANK'), true);
  assert.equal(matches('brand IS BLANK'), false);
});

test('a blank value satisfies no comparison but != and <>', () => {
  for (const formula of ['price = 1', 'price < 1', 'price <= 1', 'price > 1', 'price >= 1', 'price IN (1)', 'brand = "x"',
    'brand < "zzz"', 'title CONTAINS "a"', 'title STARTS WITH "a"', 'title ENDS WITH "a"', 'active = FALSE', 'active',
    'updated_at < "2100-01-01"', 'attribute("color") = "red"']) {
    assert.equal(matches(formula, blankProduct), false, formula);
  }
  for (const formula of ['price != 1', 'price <> 1', 'brand != "x"', 'active != TRUE', 'NOT price > 1', 'NOT active',
    'attribute("color") <> "red"']) {
    assert.equal(matches(formula, blankProduct), true, formula);
  }
});

test('a stored value its field type cannot read counts as blank', () => {
  const odd: FilterRecord = { fields: { price: 'n/a', active: 'maybe', updated_at: 'last week' }, attributes: {} };
  assert.equal(matches('price > 0', odd), false);
  assert.equal(matches('price IS BLANK', odd), true);
  assert.equal(matches('active IS BLANK', odd), true);
  assert.equal(matches('updated_at IS BLANK', odd), true);
});

test('boolean fields: bare as a condition, or compared with TRUE and FALSE', () => {
  const inactive: FilterRecord = { fields: { active: false }, attributes: {} };
  assert.equal(matches('active'), true);
  assert.equal(matches('active', inactive), false);
  assert.equal(matches('NOT active', inactive), true);
  assert.equal(matches('active = TRUE'), true);
  assert.equal(matches('active = false', inactive), true);
  assert.equal(matches('active != FALSE'), true);
  assert.equal(matches('active <> true', inactive), true);
  assert.equal(matches('active AND brand = "acme"'), true);
  assert.equal(matches('active', { fields: { active: 'TRUE' }, attributes: {} }), true, 'stored as text');
});

test('timestamps compare as instants; a date is midnight UTC', () => {
  assert.equal(matches('updated_at >= "2026-03-10"'), true);
  assert.equal(matches('updated_at < "2026-03-11"'), true);
  assert.equal(matches('updated_at < "2026-03-10"'), false);
  assert.equal(matches('updated_at = "2026-03-10T08:00:00Z"'), true);
  assert.equal(matches('updated_at = "2026-03-10T09:00:00+01:00"'), true, 'the same instant in another zone');
  assert.equal(matches('updated_at > "2026-03-10T07:59:59.999Z"'), true);
  assert.equal(matches('updated_at != "2026-03-10"'), true);
  const midnight: FilterRecord = { fields: { updated_at: '2026-03-10T00:00:00Z' }, attributes: {} };
  assert.equal(matches('updated_at = "2026-03-10"', midnight), true);
  const epochMs: FilterRecord = { fields: { updated_at: Date.parse('2026-03-10T00:00:00Z') }, attributes: {} };
  assert.equal(matches('updated_at = "2026-03-10"', epochMs), true, 'a number is epoch milliseconds');
});

test('quotes: single or double, a quote inside written twice', () => {
  assert.equal(matches("title STARTS WITH 'O''Brien'"), true);
  assert.equal(matches('title STARTS WITH "O\'Brien"'), true);
  assert.equal(matches('attribute("quote") = "say ""hi"""'), true);
  assert.equal(matches('attribute(\'quote\') = \'say "hi"\''), true);
  assert.equal(matches("title = ''''"), false);
});

test('attribute() reads product attributes by id and reports the ids it reads', () => {
  assert.equal(matches('attribute("color") = "red"'), true);
  assert.equal(matches('ATTRIBUTE ( "size eu" ) = "42"'), true, 'any id, keyword in any case, spaces allowed');
  assert.equal(matches('attribute("material") IS BLANK'), true, 'absent');
  assert.equal(matches('attribute("constructor") IS BLANK'), true, 'Object.prototype is not an attribute');
});

test('attributeIds lists each attribute once, in order of first use; source is the formula as given', () => {
  const formula = ' attribute("b") = "1" OR attribute("a") = "2" OR attribute("b") IS BLANK ';
  const compiled = parseFilterFormula(formula, FIELDS);
  assert.deepEqual(compiled.attributeIds, ['b', 'a']);
  assert.equal(compiled.source, formula);
  assert.deepEqual(parseFilterFormula('price > 1', FIELDS).attributeIds, []);
});

test('precedence: NOT binds tighter than AND, AND tighter than OR; parentheses override', () => {
  // false AND true OR true: (false AND true) OR true
  assert.equal(matches('sku = "x" AND brand = "acme" OR active'), true);
  assert.equal(matches('sku = "x" AND (brand = "acme" OR active)'), false);
  // true OR false AND false: true OR (false AND false)
  assert.equal(matches('active OR brand = "zzz" AND sku = "x"'), true);
  assert.equal(matches('(active OR brand = "zzz") AND sku = "x"'), false);
  // NOT false AND false: (NOT false) AND false
  assert.equal(matches('NOT sku = "x" AND brand = "zzz"'), false);
  assert.equal(matches('NOT (sku = "x" AND brand = "zzz")'), true);
  assert.equal(matches('NOT NOT active'), true);
  assert.equal(matches('((((active))))'), true);
});

test('keywords and field names ignore case; whitespace is free', () => {
  assert.equal(matches('PRICE > 1 and Brand = "acme"'), true);
  assert.equal(matches('not ACTIVE or sku in ("ab-100")'), true);
  assert.equal(matches('title starts with "o\'" AND title Ends With "jacket"'), true);
  assert.equal(matches('brand is not blank AND Updated_At > "2026-01-01"'), true);
  assert.equal(matches('active = True'), true);
  assert.equal(matches('\n\tprice\n>\t1\n'), true);
});

test('error: an empty formula is refused at position 1', () => {
  assertFails('', 1, 'the filter is empty at position 1; write at least one condition');
  assertFails('  \n\t ', 1, 'the filter is empty at position 1; write at least one condition');
});

test('error: an unknown field lists the known ones, at most 10', () => {
  assertFails('prise = 1', 1, 'unknown field "prise" at position 1; known fields: sku, title, brand, price, msrp, active, updated_at');
  assertFails('price > 1 AND toString = "x"', 15, /^unknown field "toString" at position 15;/);
  const many = Array.from({ length: 12 }, (_, index) => ({ name: `f${index + 1}`, type: 'string' as const }));
  assertFails('x = "1"', 1, 'unknown field "x" at position 1; known fields: f1, f2, f3, f4, f5, f6, f7, f8, f9, f10 and 2 more', many);
  assertFails('x = "1"', 1, 'unknown field "x" at position 1; known fields: none', []);
  assertFails('lower(sku) = "a"', 1, 'unknown function "lower" at position 1; the only function is attribute("<attribute id>")');
});

test('error: an unexpected token names what was expected and where', () => {
  assertFails('price 12', 7, 'expected a comparison after price at position 7; found the number 12');
  assertFails('price', 6, 'expected a comparison after price at position 6; the formula ends there');
  assertFails('attribute("x")', 15, 'expected a comparison after attribute("x") at position 15; the formula ends there');
  assertFails('sku NOT IN ("a")', 5, /^expected a comparison after sku at position 5; found NOT; to negate a condition put NOT before it/);
  assertFails('sku = "a" AND', 14, 'expected a condition at position 14 (a field, attribute("<attribute id>"), NOT or "("); the formula ends there');
  assertFails('AND active', 1, /^expected a condition at position 1 .*; found AND$/);
  assertFails('()', 2, /^expected a condition at position 2 .*; found "\)"$/);
  assertFails('sku = title', 7, 'expected a value after = at position 7 (text in quotes, a number, TRUE or FALSE); found title');
  assertFails('sku STARTS "a"', 12, 'expected WITH after STARTS at position 12; found the text "a"');
  assertFails('sku IS NULL', 8, 'expected BLANK or NOT BLANK after IS at position 8; found NULL');
  assertFails('sku IN "a"', 8, 'expected "(" after IN at position 8, as in IN ("a", "b"); found the text "a"');
  assertFails('sku IN ("a" "b")', 13, 'expected "," or ")" in the IN list at position 13; found the text "b"');
  assertFails('sku IN ()', 9, /^expected a value in the IN list at position 9 .*; found "\)"$/);
  assertFails('attribute(1) = "a"', 11, /^expected the attribute id in quotes at position 11/);
  assertFails('attribute("") = "a"', 11, /^the attribute id at position 11 is empty/);
  assertFails('attribute("x" = "a"', 15, 'expected ")" after the attribute id at position 15; found "="');
  assertFails('price > $5', 9, 'unexpected character "$" at position 9');
  assertFails('sku = “a”', 7, 'unexpected character "“" at position 7; write quotes as plain " or \'');
  assertFails('price = -', 9, 'unexpected character "-" at position 9');
  assertFails('price = 1.2.3', 9, 'malformed number "1.2.3" at position 9; write numbers as 12, -3.5 or .5');
  assertFails('price = 12abc', 9, /^malformed number "12abc" at position 9/);
});

test('error: trailing input after a complete formula', () => {
  assertFails('sku = "a" title = "b"', 11, 'expected AND, OR or the end of the formula at position 11; found title');
  assertFails('active 1', 8, 'expected AND, OR or the end of the formula at position 8; found the number 1');
});

test('error: an unterminated text points at its opening quote', () => {
  assertFails('sku = "abc', 7, 'unterminated text at position 7: end it with " (a " inside the text is written twice: "")');
  assertFails("sku = 'O''Brien", 7, /^unterminated text at position 7: end it with '/);
  assertFails('sku = "a""', 7, /^unterminated text at position 7/);
});

test('error: unbalanced parentheses', () => {
  assertFails('(sku = "a"', 1, 'unbalanced parentheses: the "(" at position 1 is never closed; add a ")"');
  assertFails('active AND ((sku = "a") OR brand = "b"', 12, /^unbalanced parentheses: the "\(" at position 12 is never closed/);
  assertFails('sku = "a")', 10, 'unbalanced parentheses: the ")" at position 10 closes nothing');
  assertFails('sku IN ("a", "b"', 8, /^unbalanced parentheses: the "\(" at position 8 is never closed/);
  assertFails('attribute("x"', 10, /^unbalanced parentheses: the "\(" at position 10 is never closed/);
  assertFails('(sku = "a" brand = "b")', 12, 'expected AND, OR or ")" at position 12; found brand');
});

test('error: type mismatches point at the literal or the operator', () => {
  assertFails('price = "abc"', 9, 'price is a number; compare it with a number, not the text "abc" at position 9');
  assertFails('price = TRUE', 9, 'price is a number; compare it with a number, not TRUE at position 9');
  assertFails('price IN (1, "x")', 14, /^price is a number; compare it with a number, not the text "x" at position 14/);
  assertFails('sku = 12', 7, 'sku is text; compare it with a value in quotes, not the number 12 at position 7');
  assertFails('active = "yes"', 10, 'active is TRUE or FALSE; compare it with TRUE or FALSE, not the text "yes" at position 10');
  assertFails('active = 1', 10, /^active is TRUE or FALSE; compare it with TRUE or FALSE, not the number 1/);
  assertFails('active < TRUE', 8, 'active is TRUE or FALSE; compare it with = or !=, not < at position 8');
  assertFails('price CONTAINS "1"', 7, 'price is a number; CONTAINS at position 7 works only on text');
  assertFails('updated_at STARTS WITH "2026"', 12, 'updated_at is a timestamp; STARTS WITH at position 12 works only on text');
  assertFails('updated_at > "yesterday"', 14, /^updated_at is a timestamp; compare it with a date or a date-time with its zone in quotes, .* not the text "yesterday" at position 14$/);
  assertFails('updated_at > "2026-01-01T10:00:00"', 14, /date-time with its zone/);
  assertFails('updated_at > "2026-02-30"', 14, /not the text "2026-02-30"/);
  assertFails('updated_at > 20260101', 14, /not the number 20260101/);
  assertFails('sku = ""', 7, 'the empty value at position 7 never matches; to test for a missing value write sku IS BLANK or sku IS NOT BLANK');
});

test('positions count characters, not UTF-16 units', () => {
  assertFails('sku = "😀" prise', 11, /^expected AND, OR or the end of the formula at position 11/);
});

test('error: a formula longer than MAX_FILTER_LENGTH characters', () => {
  const padding = (length: number) => `sku = "${'x'.repeat(length - 8)}"`;
  assert.equal(padding(MAX_FILTER_LENGTH).length, MAX_FILTER_LENGTH);
  assert.equal(matches(padding(MAX_FILTER_LENGTH)), false, 'exactly the limit parses');
  assertFails(padding(MAX_FILTER_LENGTH + 1), MAX_FILTER_LENGTH + 1,
    /^the filter is longer than 4000 characters and goes past the limit at position 4001; shorten it/);
  const emoji = `sku = "${'😀'.repeat(MAX_FILTER_LENGTH - 8)}"`;
  assert.equal(matches(emoji), false, '4000 characters in 7,984 UTF-16 units still parse');
  assertFails(`${emoji} `, MAX_FILTER_LENGTH + 1, /^the filter is longer than 4000 characters/);
  assertFails(' '.repeat(1_000_000), MAX_FILTER_LENGTH + 1, /^the filter is longer than 4000 characters/);
});

test('error: nesting deeper than 64 levels of parentheses or NOT, never a RangeError', () => {
  assert.equal(matches(`${'('.repeat(64)}active${')'.repeat(64)}`), true);
  assertFails(`${'('.repeat(65)}active${')'.repeat(65)}`, 65,
    'the formula nests too deeply at position 65: at most 64 parentheses and NOTs can be open at once');
  assert.equal(matches(`${'NOT '.repeat(64)}active`), true);
  assertFails(`${'NOT '.repeat(65)}active`, 257, /^the formula nests too deeply at position 257/);
  assert.equal(matches(`${'NOT ('.repeat(32)}active${')'.repeat(32)}`), true);
  assertFails(`${'NOT ('.repeat(33)}active${')'.repeat(33)}`, 161, /^the formula nests too deeply at position 161/);
  assertFails('('.repeat(MAX_FILTER_LENGTH), 65, /^the formula nests too deeply at position 65/);
  assertFails('NOT '.repeat(MAX_FILTER_LENGTH / 4), 257, /^the formula nests too deeply/);
  // Siblings do not nest: many parenthesised groups side by side are fine.
  assert.equal(matches(Array.from({ length: 200 }, () => '(active)').join(' AND ')), true);
});

test('long flat formulas parse and match (one pass over the text)', () => {
  const fields: FilterField[] = [{ name: 'a', type: 'number' }];
  const repeats = 'a = 1 OR '.repeat(Math.floor(3900 / 9));
  const formula = `${repeats}a = 2`;
  assert.ok(formula.length >= 3900 && formula.length <= MAX_FILTER_LENGTH);
  const compiled = parseFilterFormula(formula, fields);
  assert.equal(compiled.matches({ fields: { a: 2 }, attributes: {} }), true);
  assert.equal(compiled.matches({ fields: { a: 3 }, attributes: {} }), false);
  const ands = `${'a >= 1 AND '.repeat(350)}a < 5`;
  assert.equal(parseFilterFormula(ands, fields).matches({ fields: { a: '2' }, attributes: {} }), true);
  const list = `a IN (${Array.from({ length: 700 }, (_, index) => index).join(',')})`;
  assert.ok(list.length <= MAX_FILTER_LENGTH);
  assert.equal(parseFilterFormula(list, fields).matches({ fields: { a: 699 }, attributes: {} }), true);
  const quotes = `attribute("q") = "${'""'.repeat(1980)}"`;
  assert.ok(quotes.length <= MAX_FILTER_LENGTH);
  assert.equal(parseFilterFormula(quotes, fields).matches({ fields: {}, attributes: { q: '"'.repeat(1980) } }), true);
});
