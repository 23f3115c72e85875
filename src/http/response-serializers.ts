import fastJsonStringify, { type Options as SerializerOptions } from 'fast-json-stringify';

/**
 * Response serializers without run-time schema validation.
 *
 * fast-json-stringify serializes an `anyOf` by validating the value against each option with Ajv, and
 * compiles that Ajv validator on the route's first answer: 40–80 ms of one request holding the event loop
 * (the stall benchmark saw it on the first report answer), and a validation per nullable field on every
 * answer after that. Almost every `anyOf` in our response schemas is one of two shapes TypeBox writes:
 * `Nullable(X)` = `anyOf [X, {type: "null"}]`, and a union of literals = `anyOf [{const, type}, …]`. Both say
 * the same thing as a plain `type` list or `enum`, which fast-json-stringify serializes with a `typeof` check,
 * so the serializer is built from a copy of the schema rewritten that way. Routes keep their TypeBox schemas
 * as written (request validation and the OpenAPI document are unchanged); only what the serializer reads
 * differs. Any other `anyOf` is left as it is.
 */

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);

const COMBINERS = ['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', '$ref'];
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/** A schema with one plain `type` (string, not a list) and no combinator or reference of its own. */
function singleTyped(node: SchemaNode): node is SchemaNode & { type: string } {
  return typeof node.type === 'string' && node.type !== 'null' && !COMBINERS.some((key) => key in node);
}

const isNull = (node: SchemaNode) => node.type === 'null' && Object.keys(node).every((key) => key === 'type' || key === 'description');

/** `anyOf` of literals of one scalar type → `{type, enum}`; `anyOf [X, null]` → X with `type: [X.type, "null"]`. */
function simplifyAnyOf(node: SchemaNode): SchemaNode {
  const options = node.anyOf;
  if (!Array.isArray(options) || options.length === 0 || !options.every(isNode)) return node;
  const { anyOf: _anyOf, ...siblings } = node;
  if (Object.keys(siblings).some((key) => COMBINERS.includes(key) || key === 'type')) return node;

  const first = options[0]!;
  const literalsOfOneType =
    typeof first.type === 'string' &&
    SCALAR_TYPES.has(first.type) &&
    options.every((o) => 'const' in o && o.type === first.type && Object.keys(o).every((key) => key === 'const' || key === 'type' || key === 'description'));
  if (literalsOfOneType) return { ...siblings, type: first.type, enum: options.map((o) => o.const) };

  if (options.length === 2) {
    const [a, b] = options as [SchemaNode, SchemaNode];
    const value = isNull(b) ? a : isNull(a) ? b : null;
    if (value !== null && singleTyped(value)) return { ...value, ...siblings, type: [value.type, 'null'] };
  }
  return node;
}

/**
 * A rewritten deep copy of a response schema (symbols, such as TypeBox's markers, are not copied; the
 * serializer never reads them). Children are rewritten first, so a nullable union of literals becomes
 * `{type: [t, "null"], enum}` once its inner union is an enum.
 */
export function serializerSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(serializerSchema);
  if (!isNode(schema)) return schema;
  const copy: SchemaNode = {};
  for (const [key, value] of Object.entries(schema)) {
    // `const`, `enum`, `default` and `examples` hold values, not schemas.
    copy[key] = key === 'const' || key === 'enum' || key === 'default' || key === 'examples' || key === 'example' ? value : serializerSchema(value);
  }
  return simplifyAnyOf(copy);
}

type SerializerFactory = (externalSchemas?: unknown, serializerOptions?: SerializerOptions) => (route: { schema?: unknown; method: string; url: string; httpStatus: string }) => (data: unknown) => string;

/**
 * Serializers already built in this process, by route schema object and the shared schemas they were built
 * with: every app built in one process (a test file builds many) builds each once.
 */
const built = new WeakMap<object, Map<string, (data: unknown) => string>>();

/**
 * Fastify's `schemaController.compilersFactory.buildSerializer`, as Fastify's default one (shared schemas
 * registered with addSchema are known to every serializer) but over the rewritten schema. A serializer is
 * built on its route's first answer, not when the app starts (see createValidatorCompiler in validation.ts
 * for why); test/unit/route-schemas-compile.test.ts builds every route's.
 */
export const buildResponseSerializer: SerializerFactory = (externalSchemas, serializerOptions) => {
  const base = { ...serializerOptions };
  const { shared, sharedKey } = prepareShared(externalSchemas, base);
  return ({ schema }) => {
    const own = (schema ?? {}) as SchemaNode;
    let serializer: ((data: unknown) => string) | null = null;
    return (data) => (serializer ??= serializerFor(own, shared, sharedKey, base))(data);
  };
};

/** The shared schemas rewritten for the serializer, and the cache key of serializers built with them. */
function prepareShared(externalSchemas: unknown, base: SerializerOptions): { shared: Record<string, unknown>; sharedKey: string } {
  const shared = Object.fromEntries(Object.entries((externalSchemas ?? {}) as Record<string, unknown>).map(([id, s]) => [id, serializerSchema(s)]));
  return { shared, sharedKey: `${Object.keys(shared).sort().join(',')}|${JSON.stringify(base)}` };
}

function serializerFor(own: SchemaNode, shared: Record<string, unknown>, sharedKey: string, base: SerializerOptions): (data: unknown) => string {
  let byShared = built.get(own);
  if (!byShared) built.set(own, (byShared = new Map()));
  let serializer = byShared.get(sharedKey);
  if (!serializer) {
    // A schema that is itself one of the shared ones must not be registered twice.
    const others = typeof own.$id === 'string' && own.$id in shared ? Object.fromEntries(Object.entries(shared).filter(([id]) => id !== own.$id)) : shared;
    serializer = fastJsonStringify(serializerSchema(own) as SchemaNode, { ...base, schema: others as SerializerOptions['schema'] });
    byShared.set(sharedKey, serializer);
  }
  return serializer;
}

/**
 * Builds a response serializer now, as its route's first answer would, with the app's shared schemas by
 * $id (for the test that checks every route's).
 */
export function buildSerializerNow(schema: unknown, sharedSchemas: Record<string, unknown>): void {
  const { shared, sharedKey } = prepareShared(sharedSchemas, {});
  serializerFor((schema ?? {}) as SchemaNode, shared, sharedKey, {});
}
