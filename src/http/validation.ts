import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { protoEnumKeyword } from './schemas/proto-enum.js';

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives as the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Two validators: query strings and path parameters coerce ("5" → 5, one value → array) because URLs carry
 * only text, while JSON bodies are checked as sent, so `"quantity": true` is a type error, not 1.
 */
function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: true, useDefaults: true, removeAdditional: false, strict: false, ...options });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'example' });
  ajv.addKeyword(protoEnumKeyword);
  return ajv;
}

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON Schema types a value has (an integral number is both "integer" and "number"). */
function jsonTypesOf(value: unknown): string[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  return [typeof value];
}

/** Whether a schema's own `type` lets the value through (no `type` at all: it might). */
function typeAdmits(schema: SchemaNode, value: unknown): boolean {
  const declared = schema.type;
  if (declared === undefined) return true;
  const allowed = Array.isArray(declared) ? declared : [declared];
  return jsonTypesOf(value).some((t) => allowed.includes(t));
}

/** JSON Pointer escaping, as ajv writes instancePath. */
const pointerToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Finds arrays longer than their schema's maxItems, and objects with more properties than their
 * maxProperties (a map such as an import template's columns), without looking inside them. ajv with
 * allErrors checks every entry even when the array or map is already too large, so a body of 10,000 bad
 * entries against a cap of 100 would cost 10,000 entries of work and as many problems; this walk costs the
 * entries within caps only.
 * It follows properties, array items within their cap, allOf, and the one anyOf/oneOf branch whose type
 * admits the value (when two branches might, it stops: ajv decides). $ref is not followed.
 */
function collectOverCap(schema: SchemaNode, data: unknown, instancePath: string, schemaPath: string, out: ErrorObject[]): void {
  // Most of a body (strings, numbers, objects without lists) has no cap below it: not walked at all.
  if (!hasCap(schema)) return;
  if (Array.isArray(data)) {
    const limit = schema.maxItems;
    if (typeof limit === 'number' && data.length > limit) {
      out.push({
        keyword: 'maxItems',
        instancePath,
        schemaPath: `${schemaPath}/maxItems`,
        params: { limit },
        message: `must NOT have more than ${limit} items`,
      });
      return;
    }
    if (isNode(schema.items)) {
      const items = schema.items;
      data.forEach((item, i) => collectOverCap(items, item, `${instancePath}/${i}`, `${schemaPath}/items`, out));
    }
  } else if (isNode(data) && typeof schema.maxProperties === 'number' && Object.keys(data).length > schema.maxProperties) {
    const limit = schema.maxProperties;
    out.push({
      keyword: 'maxProperties',
      instancePath,
      schemaPath: `${schemaPath}/maxProperties`,
      params: { limit },
      message: `must NOT have more than ${limit} properties`,
    });
    return;
  } else if (isNode(data) && isNode(schema.properties)) {
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (isNode(sub) && Object.hasOwn(data, key)) {
        collectOverCap(sub, data[key], `${instancePath}/${pointerToken(key)}`, `${schemaPath}/properties/${pointerToken(key)}`, out);
      }
    }
  }
  if (Array.isArray(schema.allOf)) {
    schema.allOf.forEach((sub, i) => {
      if (isNode(sub)) collectOverCap(sub, data, instancePath, `${schemaPath}/allOf/${i}`, out);
    });
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    const candidates = branches.flatMap((sub, i) => (isNode(sub) && typeAdmits(sub, data) ? [{ sub, i }] : []));
    if (candidates.length === 1) collectOverCap(candidates[0]!.sub, data, instancePath, `${schemaPath}/${keyword}/${candidates[0]!.i}`, out);
  }
}

const capped = new WeakMap<SchemaNode, boolean>();

/**
 * Whether any array or map the walk below can reach has a cap (most query and path schemas have none).
 * Remembered per schema node: the walk asks it for every node of every request body.
 */
function hasCap(schema: SchemaNode): boolean {
  let known = capped.get(schema);
  if (known === undefined) capped.set(schema, (known = findsCap(schema)));
  return known;
}

function findsCap(schema: SchemaNode): boolean {
  if (typeof schema.maxItems === 'number' || typeof schema.maxProperties === 'number') return true;
  const subs: unknown[] = [schema.items, ...Object.values(isNode(schema.properties) ? schema.properties : {})];
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[keyword];
    if (Array.isArray(list)) subs.push(...list);
  }
  return subs.some((sub) => isNode(sub) && hasCap(sub));
}

type CompiledValidator = ValidateFunction & { schemaEnv?: unknown };

/**
 * Wraps an ajv validator so that an array over its cap fails at once with only the cap problems
 * (resolutions §1: "an empty list or over 100 fails the whole request … naming the limit").
 */
function capsFirst(schema: SchemaNode, validate: CompiledValidator): CompiledValidator {
  const wrapped = ((data: unknown, dataCxt?: Parameters<ValidateFunction>[1]) => {
    const overCap: ErrorObject[] = [];
    collectOverCap(schema, data, '', '#', overCap);
    if (overCap.length > 0) {
      wrapped.errors = overCap;
      return false;
    }
    const ok = validate(data, dataCxt);
    wrapped.errors = validate.errors ?? null;
    return ok;
  }) as CompiledValidator;
  // Fastify passes the parent object (so ajv may replace a coerced root value) only when it sees schemaEnv.
  wrapped.schemaEnv = validate.schemaEnv;
  wrapped.schema = validate.schema;
  return wrapped;
}

/**
 * The two validators, one per process: ajv keeps what it compiled by schema object, so every app built in
 * the process (a test file builds many) compiles each route schema once.
 */
let validators: { body: Ajv; url: Ajv } | null = null;

/** The validator for a part of the request: bodies as sent, URL parts coerced. */
function validatorFor(httpPart: string | undefined): Ajv {
  validators ??= { body: makeAjv({ coerceTypes: false }), url: makeAjv({ coerceTypes: 'array' }) };
  return httpPart === 'body' ? validators.body : validators.url;
}

/**
 * Route schemas compile on their route's first request, not when the app starts: ~300 route schemas cost
 * about a second of compiling at every start, most of it for routes a given process never serves (one
 * compile is a few milliseconds, well inside one request's budget). A schema ajv cannot compile still fails
 * loudly, on that first request; test/unit/route-schemas-compile.test.ts compiles every route's schemas.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => {
    const ajv = validatorFor(httpPart);
    let compiled: CompiledValidator | null = null;
    const compile = (): CompiledValidator => {
      const validate = ajv.compile(schema as object) as CompiledValidator;
      // Schemas without a capped array or map (the hot reads' query strings, say) pay for no walk.
      return isNode(schema) && hasCap(schema) ? capsFirst(schema, validate) : validate;
    };
    const lazy = ((data: unknown, dataCxt?: Parameters<ValidateFunction>[1]) => {
      compiled ??= compile();
      const ok = compiled(data, dataCxt);
      lazy.errors = compiled.errors ?? null;
      return ok;
    }) as CompiledValidator;
    // Fastify passes the parent object (so ajv may replace a coerced root value) only when it sees schemaEnv,
    // which every ajv validator has; the lazy one says so before it has compiled.
    (lazy as { schemaEnv?: unknown }).schemaEnv = true;
    return lazy as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}

/** Compiles a route schema now, as its first request would (for the test that checks every route's). */
export function compileRouteSchemaNow(schema: unknown, httpPart: string): void {
  validatorFor(httpPart).compile(schema as object);
}

/**
 * A JSON body checked against a route's body schema exactly as that route checks it (the same compiled
 * validator, caps first), for a page that builds the body itself (the console's order form): the
 * problems ajv reports, none when the body passes.
 */
export function bodySchemaProblems(schema: object, body: unknown): ErrorObject[] {
  const validate = validatorFor('body').compile(schema);
  const checked = isNode(schema) && hasCap(schema) ? capsFirst(schema, validate) : validate;
  return checked(body) ? [] : [...(checked.errors ?? [])];
}
