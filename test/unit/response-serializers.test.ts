import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { buildResponseSerializer, serializerSchema } from '../../src/http/response-serializers.js';
import { Nullable } from '../../src/http/schemas/common.js';

const Status = Type.Union([Type.Literal('PENDING'), Type.Literal('SHIPPED'), Type.Literal('CANCELLED')]);
const Line = Type.Object({
  sku: Type.String(),
  title: Nullable(Type.String({ maxLength: 10 })),
  quantity: Nullable(Type.Integer()),
  price: Nullable(Type.Number()),
  gift: Nullable(Type.Boolean()),
});
const Order = Type.Object({
  id: Type.Integer(),
  status: Status,
  previousStatus: Nullable(Status),
  shipTo: Nullable(Type.Object({ name: Type.String(), city: Nullable(Type.String()) })),
  tags: Nullable(Type.Array(Type.String())),
  lines: Type.Array(Line),
  note: Type.Optional(Nullable(Type.String())),
  amount: Type.Union([Type.String(), Type.Number()]),
});

function serializerFor(schema: unknown) {
  return buildResponseSerializer({}, {})({ schema, method: 'GET', url: '/x', httpStatus: '200' });
}

describe('response serializers', () => {
  it('writes nullable schemas as type lists and unions of literals as enums', () => {
    const rewritten = serializerSchema(Order) as { properties: Record<string, Record<string, unknown>> };
    assert.deepEqual(rewritten.properties.status, { type: 'string', enum: ['PENDING', 'SHIPPED', 'CANCELLED'] });
    assert.deepEqual(rewritten.properties.previousStatus, { type: ['string', 'null'], enum: ['PENDING', 'SHIPPED', 'CANCELLED'] });
    assert.deepEqual(rewritten.properties.tags, { type: ['array', 'null'], items: { type: 'string' } });
    assert.deepEqual((rewritten.properties.shipTo as { type: unknown }).type, ['object', 'null']);
    const line = (rewritten.properties.lines as { items: { properties: Record<string, unknown> } }).items.properties;
    assert.deepEqual(line.title, { type: ['string', 'null'], maxLength: 10 });
    assert.deepEqual(line.quantity, { type: ['integer', 'null'] });
    // A union of two real types is left as it is (the serializer still tells them apart by validating).
    assert.ok(Array.isArray(rewritten.properties.amount!.anyOf));
  });

  it('keeps the source schema as written (validation and the OpenAPI document read it)', () => {
    const before = JSON.stringify(Order);
    serializerSchema(Order);
    assert.equal(JSON.stringify(Order), before);
    assert.equal(Order.properties.previousStatus.anyOf.length, 2);
  });

  it('serializes exactly as JSON.stringify, with and without the nullable values', () => {
    const serialize = serializerFor(Order);
    const full = {
      id: 7,
      status: 'SHIPPED',
      previousStatus: 'PENDING',
      shipTo: { name: 'Ann "A" Lee', city: 'Zürich' },
      tags: ['a', 'b\n'],
      lines: [{ sku: 'S-1', title: 'Mug', quantity: 2, price: 4.5, gift: false }],
      note: 'leave at door',
      amount: '12.50',
    };
    const empty = {
      id: 8,
      status: 'PENDING',
      previousStatus: null,
      shipTo: null,
      tags: null,
      lines: [{ sku: 'S-2', title: null, quantity: null, price: null, gift: null }],
      note: null,
      amount: 3,
    };
    const absent = { id: 9, status: 'CANCELLED', previousStatus: null, shipTo: { name: 'B', city: null }, tags: [], lines: [], amount: '0' };
    for (const value of [full, empty, absent]) assert.deepEqual(JSON.parse(serialize(value)), value);
  });

  it('still refuses a value of a type the schema does not allow', () => {
    const serialize = serializerFor(Type.Object({ quantity: Nullable(Type.Integer()) }));
    assert.throws(() => serialize({ quantity: 'three' }), /does not match schema definition/);
  });
});
