import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { isAppError } from '../../src/domain/errors.js';
import { Role } from '../../src/http/admin/users/schemas.js';
import { CreateVendorBody } from '../../src/http/admin/vendors/schemas.js';
import { checkForm, checkFormValue, formInput, readForm, requireConfirmed } from '../../src/http/console/form-check.js';
import { refusalText } from '../../src/http/console/refusal-words.js';

/** The console's one form helper (src/http/console/form-check.ts, form-input.ts): API schemas, seller words. */

const Nullable = <T extends ReturnType<typeof Type.Integer>>(s: T) => Type.Union([s, Type.Null()]);

const Form = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 10 }),
    quantity: Type.Integer({ minimum: 1, maximum: 1000 }),
    price: Type.Optional(Type.Number({ minimum: 0 })),
    gift: Type.Optional(Type.Boolean()),
    days: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
    note: Type.Optional(Type.String()),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 2 })),
    role: Type.Optional(Role),
  },
  { additionalProperties: false },
);

/** The flash a refusal thrown by the helper shows. */
function flashOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    assert.ok(isAppError(error), String(error));
    assert.equal(error.status, 400);
    return refusalText(error);
  }
  assert.fail('the form was accepted');
}

describe('console forms: reading a form as its API body', () => {
  it('coerces text as the schema types ask: numbers, a ticked box, repeated fields, blanks as no value', () => {
    const value = formInput(Form, { name: 'Mug', quantity: ' 12 ', price: '9.50', gift: 'yes', days: '', note: '   ', tags: ['a', '', 'b'] });
    assert.deepEqual(value, { name: 'Mug', quantity: 12, price: 9.5, gift: true, tags: ['a', 'b'] });
    // An unticked box is not sent: false. No field of a list: an empty list (no box ticked).
    assert.deepEqual(formInput(Form, { name: 'Mug', quantity: '1' }), { name: 'Mug', quantity: 1, gift: false, tags: [] });
  });

  it('keeps a required text blank, so its own rule speaks, and turns a blank into null when asked', () => {
    assert.equal(formInput(Form, { name: '' }).name, '');
    assert.equal(formInput(Form, { quantity: '' }).quantity, undefined);
    assert.deepEqual(formInput(Form, { days: ' ' }, { blank: 'null' }).days, null);
    // A property that takes no null stays absent even then.
    assert.equal('note' in formInput(Form, { note: '' }, { blank: 'null' }), false);
  });

  it('reads an input named otherwise, trims only what it is told to, and keeps other text as typed', () => {
    const value = formInput(Form, { title: '  Mug ', note: ' kept as typed ' }, { inputs: { name: 'title' }, trim: ['name'] });
    assert.equal(value.name, 'Mug');
    assert.equal(value.note, ' kept as typed ');
  });

  it('answers the typed value of a valid form', () => {
    const value = readForm(Form, { name: 'Mug', quantity: '3', days: '7' });
    assert.equal(value.quantity, 3);
    assert.equal(value.days, 7);
  });
});

describe('console forms: problems in the seller’s words', () => {
  it('a wrong type: text where a whole number goes', () => {
    assert.equal(flashOf(() => readForm(Form, { name: 'Mug', quantity: 'ten' })), 'Quantity: must be a whole number');
    assert.equal(flashOf(() => readForm(Form, { name: 'Mug', quantity: '2.5' })), 'Quantity: must be a whole number');
    assert.equal(flashOf(() => readForm(Form, { name: 'Mug', quantity: '1', price: 'cheap' })), 'Price: must be a number');
  });

  it('an unknown enum value', () => {
    assert.equal(flashOf(() => readForm(Form, { name: 'Mug', quantity: '1', role: 'ADMIN' })), 'Role: must be one of OWNER, STAFF');
  });

  it('an oversize field, and a list longer than its cap', () => {
    assert.equal(flashOf(() => readForm(Form, { name: 'x'.repeat(11), quantity: '1' })), 'Name: must be at most 10 characters');
    assert.equal(flashOf(() => readForm(Form, { name: 'Mug', quantity: '1', tags: ['a', 'b', 'c'] })), 'Tags: takes at most 2 entries');
    assert.equal(flashOf(() => readForm(Form, { name: 'Mug', quantity: '1001' })), 'Quantity: must be 1,000 or less');
  });

  it('names every field as the form labels it, never the API name, and lists each problem once', () => {
    const text = flashOf(() => readForm(CreateVendorBody, { name: '', leadTimeDays: '-1', paymentWindowDays: 'soon' }));
    assert.equal(text, 'Name: must not be empty; Lead time (days): must be 0 or more; Payment window (days): must be a whole number');
  });

  it('prefers the rule a value broke to the types of a union it does not have', () => {
    const checked = checkFormValue(Form, { name: 'Mug', quantity: 1, days: -3 });
    assert.deepEqual(checked, { ok: false, problems: [{ field: 'days', text: 'Days: must be 0 or more' }] });
    const typed = checkFormValue(Form, { name: 'Mug', quantity: 1, days: 'soon' });
    assert.deepEqual(typed.ok ? [] : typed.problems.map((p) => p.text), ['Days: must be a whole number']);
  });

  it("says a form's own words: a label, a sentence, a sentence for a blank only", () => {
    const Rows = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 5 }), lines: Type.Array(Type.Object({ quantity: Type.Integer({ minimum: 1 }) })) });
    const words = { reason: { blank: 'Say why in the reason box.' }, 'lines.quantity': { says: 'Units: type a whole number, 1 or more.' } };
    assert.equal(flashOf(() => checkForm(Rows, { reason: '', lines: [{ quantity: 0 }] }, words)), 'Say why in the reason box. Units: type a whole number, 1 or more.');
    assert.equal(flashOf(() => checkForm(Rows, { reason: 'far too long', lines: [{ quantity: 1 }, { quantity: 0 }, { quantity: -1 }] }, words)), 'Reason: must be at most 5 characters; Units: type a whole number, 1 or more.');
    assert.equal(flashOf(() => checkForm(Rows, { reason: 'ok', lines: [{ quantity: 'x' }] }, { 'lines.quantity': 'Units' })), 'Units: must be a whole number');
  });

  it('says the same sentence for many rows once, and lists at most ten problems, counting the rest', () => {
    const Many = Type.Object({ lines: Type.Array(Type.Object({ sku: Type.String({ minLength: 1 }), n: Type.Integer() })) });
    const lines = Array.from({ length: 12 }, (_, i) => ({ sku: 'A', n: `bad ${i}` }));
    assert.equal(flashOf(() => checkForm(Many, { lines }, { 'lines.n': { label: 'Row' } })), 'Row: must be a whole number');
    const Wide = Type.Object(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`box${i}`, Type.Integer()])));
    const text = flashOf(() => checkForm(Wide, {}));
    assert.match(text, /^Box0: must be filled in; Box1: must be filled in; .*Box9: must be filled in; and 2 more problems$/);
  });

  it('refuses an action whose confirmation box was not ticked', () => {
    assert.equal(flashOf(() => requireConfirmed({}, 'Tick the box to confirm.')), 'Tick the box to confirm.');
    assert.equal(flashOf(() => requireConfirmed({ confirm: 'no' }, 'Tick the box to confirm.')), 'Tick the box to confirm.');
    requireConfirmed({ confirm: 'yes' }, 'unused');
  });
});
