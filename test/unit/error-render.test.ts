import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyError } from 'fastify';
import { toAppError, errorStyleFor } from '../../src/http/plugins/errors.js';
import { createValidatorCompiler } from '../../src/http/validation.js';
import { Int64Input } from '../../src/http/schemas/common.js';
import { AppError } from '../../src/domain/errors.js';

type Validate = ((data: unknown) => boolean) & { errors?: FastifyError['validation'] | null };

function validationError(schema: TSchema, data: unknown, httpPart = 'body'): FastifyError {
  const compile = createValidatorCompiler();
  const validate = compile({ schema, httpPart, url: '/x', method: 'POST' }) as unknown as Validate;
  assert.equal(validate(data), false, 'the data should be invalid');
  return Object.assign(new Error('validation'), {
    code: 'FST_ERR_VALIDATION',
    name: 'FastifyError',
    statusCode: 400,
    validation: validate.errors ?? [],
    validationContext: httpPart === 'body' ? 'body' : httpPart,
  }) as unknown as FastifyError;
}

describe('toAppError: validation problems', () => {
  it('gives one violation per problem, named by path', () => {
    const schema = Type.Object({
      items: Type.Array(Type.Object({ SKU: Type.String({ minLength: 1 }), quantity: Type.Integer({ minimum: 0 }) })),
      mode: Type.String({ enum: ['A', 'B'] }),
    });
    const { appError, internal } = toAppError(validationError(schema, { items: [{ SKU: '', quantity: -1 }, { quantity: 'x' }], mode: 'C' }));
    assert.equal(internal, false);
    assert.equal(appError.status, 400);
    assert.deepEqual(
      appError.violations.map((v) => v.field).sort(),
      ['items[0].SKU', 'items[0].quantity', 'items[1].SKU', 'items[1].quantity', 'mode'],
    );
    assert.equal(appError.violations.find((v) => v.field === 'mode')?.description, 'must be one of A, B');
    assert.equal(appError.violations.find((v) => v.field === 'items[1].SKU')?.description, 'is required');
    assert.match(appError.message, /items\[0\]\.SKU: .*; /);
  });

  it('collapses a union (int64 as string or number) into one violation', () => {
    const schema = Type.Object({ quantity: Int64Input });
    const { appError } = toAppError(validationError(schema, { quantity: true }));
    assert.equal(appError.violations.length, 1, JSON.stringify(appError.violations));
    assert.equal(appError.violations[0]?.field, 'quantity');
    assert.match(appError.violations[0]!.description, /must be string or must be integer/);
  });

  it('names nested fields of object branches', () => {
    const schema = Type.Object({
      entry: Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Integer() })]),
    });
    const { appError } = toAppError(validationError(schema, { entry: {} }));
    assert.equal(appError.violations.length, 1, JSON.stringify(appError.violations));
    assert.equal(appError.violations[0]?.description, 'entry.a: is required or entry.b: is required');
  });

  it('keeps the unions of different array items apart', () => {
    const schema = Type.Object({
      rows: Type.Array(Type.Object({ entry: Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Integer() })]) })),
    });
    const { appError } = toAppError(validationError(schema, { rows: [{ entry: {} }, { entry: { a: 1 } }] }));
    assert.deepEqual(appError.violations, [
      { field: 'rows[0].entry', description: 'rows[0].entry.a: is required or rows[0].entry.b: is required' },
      { field: 'rows[1].entry', description: 'rows[1].entry.a: must be string or rows[1].entry.b: is required' },
    ]);
  });

  it('lists only the branches of nested unions, not their "must match a schema in anyOf"', () => {
    const schema = Type.Object({ cost: Type.Union([Type.Union([Type.Number(), Type.String()]), Type.Null()]) });
    const { appError } = toAppError(validationError(schema, { cost: {} }));
    assert.deepEqual(appError.violations, [{ field: 'cost', description: 'must be number or must be string or must be null' }]);
  });

  it('names the broken rule of the branch whose type the value has, without the other branches', () => {
    const schema = Type.Object({ note: Type.Union([Type.String({ maxLength: 3 }), Type.Null()]), tags: Type.Unsafe({ type: ['string', 'null'] }) });
    const { appError } = toAppError(validationError(schema, { note: 'long', tags: 5 }));
    assert.deepEqual(appError.violations, [
      { field: 'note', description: 'must be at most 3 characters' },
      { field: 'tags', description: 'must be string or null' },
    ]);
  });

  it('handles 10,000 failing unions in an uncapped array, naming the first 20 and counting the rest', () => {
    const schema = Type.Object({ rows: Type.Array(Type.Object({ quantity: Int64Input })) });
    const rows = Array.from({ length: 10_000 }, () => ({ quantity: true }));
    const { appError } = toAppError(validationError(schema, { rows }));
    assert.equal(appError.violations.length, 10_000);
    assert.equal(appError.violations[9_999]?.field, 'rows[9999].quantity');
    assert.match(appError.message, /^rows\[0\]\.quantity: must be string or must be integer; /);
    assert.match(appError.message, /; \.\.\. and 9,980 more problems$/);
    assert.equal(appError.message.split('; ').length, 21);
  });

  it('refuses an array over its cap with that one problem, before looking at the entries', () => {
    const schema = Type.Object({
      batch: Type.Array(Type.Object({ sku: Type.String(), lines: Type.Union([Type.Array(Type.Integer(), { maxItems: 2 }), Type.Null()]) }), { maxItems: 3 }),
    });
    const tooMany = validationError(schema, { batch: Array.from({ length: 30 }, () => ({ sku: 1 })) });
    assert.deepEqual(toAppError(tooMany).appError.violations, [{ field: 'batch', description: 'must NOT have more than 3 items' }]);
    // Within the batch cap, an entry's own capped array (inside a union) is checked the same way.
    const nested = validationError(schema, { batch: [{ sku: 'A', lines: [1, 2, 3, 'x'] }] });
    assert.deepEqual(toAppError(nested).appError.violations, [{ field: 'batch[0].lines', description: 'must NOT have more than 2 items' }]);
    // Within every cap, ajv reports each problem as before.
    const within = validationError(schema, { batch: [{ sku: 1, lines: null }, { sku: 2, lines: [1] }] });
    assert.deepEqual(toAppError(within).appError.violations.map((v) => v.field), ['batch[0].sku', 'batch[1].sku']);
  });

  it('names query parameters', () => {
    const schema = Type.Object({ pageLength: Type.Integer({ maximum: 100 }) }, { additionalProperties: false });
    const { appError } = toAppError(validationError(schema, { pageLength: '500', extra: '1' }, 'querystring'));
    assert.deepEqual(
      appError.violations.map((v) => `${v.field}: ${v.description}`).sort(),
      ['pageLength: must be <= 100', 'querystring: unknown field "extra"'],
    );
  });
});

describe('toAppError: everything else', () => {
  it('passes AppErrors through', () => {
    const e = new AppError('NOT_FOUND', 'gone');
    assert.equal(toAppError(e).appError, e);
  });

  it('turns unknown errors into a fixed INTERNAL message', () => {
    const { appError, internal } = toAppError(new TypeError('secret detail: column x of table y'));
    assert.equal(internal, true);
    assert.equal(appError.status, 500);
    assert.doesNotMatch(appError.message, /secret|column|table/);
  });

  it('maps framework client errors to meaningful statuses', () => {
    const fe = (code: string, statusCode: number, message = 'x') =>
      Object.assign(new Error(message), { code, statusCode }) as unknown as FastifyError;
    assert.equal(toAppError(fe('FST_ERR_CTP_BODY_TOO_LARGE', 413)).appError.status, 413);
    assert.equal(toAppError(fe('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415)).appError.status, 415);
    assert.equal(toAppError(fe('FST_ERR_MAX_PARAM_LENGTH', 414)).appError.status, 414);
    assert.equal(toAppError(fe('FST_ERR_CTP_EMPTY_JSON_BODY', 400)).appError.status, 400);
    assert.equal(toAppError(fe('FST_ERR_CTP_INVALID_JSON_BODY', 400)).appError.status, 400);
    assert.equal(toAppError(fe('FST_ERR_BAD_URL', 400)).appError.status, 400);
    assert.equal(toAppError(fe('SOMETHING', 405)).appError.status, 400);
    assert.equal(toAppError(fe('SOMETHING', 404)).appError.status, 404);
    assert.equal(toAppError(fe('SOMETHING', 503)).internal, true);
  });

  it('chooses the v2 body for /v2 routes only', () => {
    assert.equal(errorStyleFor('/v2/inventory'), 'v2');
    assert.equal(errorStyleFor('/v2'), 'v2');
    assert.equal(errorStyleFor('/v2?x=1'), 'v2');
    assert.equal(errorStyleFor('/v1/inventory'), 'v1');
    assert.equal(errorStyleFor('/v20/x'), 'v1');
    assert.equal(errorStyleFor('/admin/accounts'), 'v1');
  });
});
