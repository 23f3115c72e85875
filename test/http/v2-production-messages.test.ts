import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

/**
 * Every v2 answer carries exactly the fields of the production message (resolutions §7, third review):
 * the served OpenAPI document's success schemas are compared with the production service's published
 * definitions (test/fixtures/production-v2-messages.json, extracted by scripts/extract-production-messages.mjs),
 * field by field, type by type, enum value by enum value. The answers themselves are checked against these
 * schemas by v2-answers.test.ts, so a field added to a handler or a schema fails one of the two.
 */

type Shape = { type: string; format?: string } | { enum: string[] } | { message: string } | { array: Shape } | { map: Shape };
interface Production {
  operations: Record<string, { rpc: string; message: string }>;
  messages: Record<string, Record<string, Shape>>;
}
type Schema = Record<string, unknown>;
interface OpenApi {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
  components?: { schemas?: Record<string, Schema> };
}

const production = JSON.parse(readFileSync(path.join(REPO_ROOT, 'test/fixtures/production-v2-messages.json'), 'utf8')) as Production;

/** v2 routes of the contract and resolutions that the production definitions do not bind to HTTP. */
const NOT_IN_PRODUCTION_DEFINITIONS = [
  // The inventory integration service: its definitions are not published with the other two.
  'GET /v2/inventory',
  'POST /v2/inventory',
  'GET /v2/inventory/status',
  'GET /v2/inventory/warehouses',
  // Named by the contract (drift, storefront valid values) and resolutions §4 (the path form of UpdateAttributeSpec).
  'GET /v2/storefront/listing/valid_values',
  'GET /v2/storefront/listing/variant/inventory/drift/skus',
  'GET /v2/storefront/listing/variant/inventory/updated/skus',
  'PUT /v2/storefront/taxonomy/attribute_spec/{productTypeId}/{attributeSpecId}',
];

/** Production routes the contract does not name (so this service does not serve them). */
const NOT_IN_CONTRACT = [
  'DELETE /v2/storefront/configuration/{storefrontId}',
  'GET /v2/storefront/status/{storefrontId}',
  'GET /v2/warehouse/shipping_status/{warehouseUniqueId}',
];

/**
 * Production fields this service never sends, each with the reason. Leaving a field out never breaks a
 * decoder (an absent field reads as its zero value); sending one the message lacks does.
 */
const NOT_SENT: Record<string, string> = {};

/**
 * Fields the contract or the resolutions add to a production message, each with where it is decided. Any
 * other field beyond the production message fails this test.
 */
const ADDED: Record<string, string> = {
  'listing_api.Listing.ProductData.standaloneVariants': 'resolutions §7: ProductData also carries standaloneVariants',
  'listing_api.Listing.ProductData.baseListingSku': 'resolutions §7: ProductData also carries baseListingSku',
  'listing_api.Listing.ProductData.retireBaseParent': 'resolutions §7: ProductData also carries retireBaseParent',
  'orders_api.ShippedOrderLineItem.channelSku': 'the interface document, shipped orders: lineItems entry channelSku',
  'orders_api.ShippedOrderPackageItem.channelSku': 'the interface document, shipped orders: packages items channelSku',
};

function resolve(doc: OpenApi, schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  const target = doc.components?.schemas?.[name];
  assert.ok(target, `unresolved ${ref}`);
  return resolve(doc, target);
}

/** The schema without a `null` option: the production gateway writes null for unset messages and Timestamps. */
function withoutNull(schema: Schema): { schema: Schema; nullable: boolean } {
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(options)) {
    const rest = options.filter((o) => o.type !== 'null');
    if (rest.length === 1 && rest.length < options.length) return { schema: { ...schema, ...rest[0], anyOf: undefined, oneOf: undefined }, nullable: true };
  }
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((t) => t !== 'null');
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { schema, nullable: false };
}

/** Enum values a schema allows: `enum`, a `const`, or a union of those (how a union of literals is written). */
function enumValues(schema: Schema): string[] | null {
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  if (schema.const !== undefined) return [String(schema.const)];
  const options = schema.anyOf as Schema[] | undefined;
  if (!Array.isArray(options)) return null;
  const values = options.map(enumValues);
  return values.every((v) => v !== null) ? values.flat() : null;
}

/** Problems of our schema against the production shape, each prefixed with its field path. */
function compare(doc: OpenApi, ours: Schema, theirs: Shape, at: string, problems: string[]): void {
  const { schema, nullable } = withoutNull(resolve(doc, ours));
  const isMessageLike = 'message' in theirs || ('type' in theirs && theirs.format === 'date-time');
  if (nullable && !isMessageLike) problems.push(`${at}: null is allowed, but the production field is a ${JSON.stringify(theirs)} (never null)`);

  if ('array' in theirs) {
    if (schema.type !== 'array') return void problems.push(`${at}: production has a list, ours is ${JSON.stringify(schema.type)}`);
    return compare(doc, schema.items as Schema, theirs.array, `${at}[]`, problems);
  }
  if ('map' in theirs) {
    if (schema.type !== 'object' || typeof schema.additionalProperties !== 'object') return void problems.push(`${at}: production has a map, ours is not`);
    if (schema.properties && Object.keys(schema.properties).length > 0) problems.push(`${at}: a map with fixed properties`);
    // A map that is always empty (where nesting stops) has no values to compare.
    if (schema.maxProperties === 0) return;
    return compare(doc, schema.additionalProperties as Schema, theirs.map, `${at}{}`, problems);
  }
  if ('enum' in theirs) {
    const values = enumValues(schema);
    if (values === null) return void problems.push(`${at}: production has an enum, ours lists no values`);
    const unknown = values.filter((v) => !theirs.enum.includes(v));
    if (unknown.length > 0) problems.push(`${at}: values ${unknown.join(', ')} are not in the production enum`);
    return;
  }
  if ('message' in theirs) return compareMessage(doc, schema, theirs.message, at, problems);
  // Scalars: int64 travels as a string in proto JSON, int32 as a number, double as a number.
  const expected = theirs.format === 'int64' || theirs.format === 'uint64' ? ['string'] : theirs.type === 'integer' ? ['integer'] : theirs.type === 'number' ? ['number', 'integer'] : [theirs.type];
  if (!expected.includes(String(schema.type))) problems.push(`${at}: ours is ${JSON.stringify(schema.type)}, production ${theirs.type}${theirs.format ? ` (${theirs.format})` : ''}`);
}

function compareMessage(doc: OpenApi, schema: Schema, message: string, at: string, problems: string[]): void {
  const fields = production.messages[message];
  assert.ok(fields, `production message ${message} missing from the fixture`);
  if (schema.type !== 'object') return void problems.push(`${at}: production has message ${message}, ours is ${JSON.stringify(schema.type)}`);
  if (schema.additionalProperties !== false) problems.push(`${at}: not closed (additionalProperties must be false)`);
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const [name, property] of Object.entries(properties)) {
    const theirs = fields[name];
    if (!theirs) {
      if (!(`${message}.${name}` in ADDED)) problems.push(`${at}.${name}: not a field of production ${message}`);
    }
    else compare(doc, property, theirs, `${at}.${name}`, problems);
  }
  for (const name of Object.keys(fields)) {
    if (!(name in properties) && !(`${message}.${name}` in NOT_SENT)) problems.push(`${at}.${name}: production field of ${message} we do not send`);
  }
}

describe('v2 response schemas against the production definitions', () => {
  let t: TestApp;
  let doc: OpenApi;
  before(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    doc = res.json() as OpenApi;
  });
  after(async () => t.close());

  const servedV2 = () =>
    Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/v2/'))
      .flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();

  it('serves every production v2 route the contract names, under the production rpc name', () => {
    const served = new Set(servedV2());
    for (const [route, { rpc }] of Object.entries(production.operations)) {
      if (NOT_IN_CONTRACT.includes(route)) {
        assert.ok(!served.has(route), `${route} is served: move it out of NOT_IN_CONTRACT`);
        continue;
      }
      assert.ok(served.has(route), `${route} (${rpc}) is not served`);
      const [method, p] = route.split(' ') as [string, string];
      assert.equal(doc.paths[p]![method.toLowerCase()]!.operationId, rpc, route);
    }
    const extra = servedV2().filter((r) => !(r in production.operations));
    assert.deepEqual(extra, [...NOT_IN_PRODUCTION_DEFINITIONS].sort(), 'v2 routes beyond the production definitions: each needs a reason in NOT_IN_PRODUCTION_DEFINITIONS');
  });

  it('answers with exactly the production message: no extra field, production types and enum values', () => {
    const problems: string[] = [];
    for (const [route, { message }] of Object.entries(production.operations)) {
      if (NOT_IN_CONTRACT.includes(route)) continue;
      const [method, p] = route.split(' ') as [string, string];
      const response = doc.paths[p]![method.toLowerCase()]!.responses?.['200'];
      const schema = response?.content?.['application/json']?.schema;
      if (!schema) {
        problems.push(`${route}: no 200 JSON schema`);
        continue;
      }
      compareMessage(doc, resolve(doc, schema), message, route, problems);
    }
    assert.deepEqual(problems, []);
  });

  it('closes every object of every v2 success schema, including the routes production does not define', () => {
    const open: string[] = [];
    const walk = (schema: Schema, at: string) => {
      const s = resolve(doc, schema);
      if (s.type === 'object' && s.properties && s.additionalProperties !== false) open.push(at);
      for (const [name, property] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) walk(property, `${at}.${name}`);
      if (s.items) walk(s.items as Schema, `${at}[]`);
      if (typeof s.additionalProperties === 'object') walk(s.additionalProperties as Schema, `${at}{}`);
      for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const option of (s[key] ?? []) as Schema[]) walk(option, at);
    };
    for (const route of servedV2()) {
      const [method, p] = route.split(' ') as [string, string];
      for (const [status, response] of Object.entries(doc.paths[p]![method.toLowerCase()]!.responses ?? {})) {
        const schema = response.content?.['application/json']?.schema;
        if (status.startsWith('2') && schema) walk(schema, `${route} ${status}`);
      }
    }
    assert.deepEqual(open, []);
  });
});
