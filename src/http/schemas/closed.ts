import type { TSchema } from '@sinclair/typebox';

type Node = Record<string | symbol, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys whose value is one schema or a list of schemas; everything else is copied as it is. */
const SCHEMA_KEYS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else'];
const SCHEMA_LIST_KEYS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/**
 * A deep copy of a response schema in which every object that lists its properties and says nothing about
 * others gets `additionalProperties: false` (resolutions §7, third review: a v2 answer carries exactly the
 * production message's fields). The OpenAPI document then tells strict clients the shape is closed, the
 * serializer writes only the listed fields, and the answer tests reject any field the schema does not
 * list. Maps (an `additionalProperties` schema) and objects already open or closed on purpose are kept.
 * TypeBox's symbol markers are copied with the rest; shared schema objects are never changed in place.
 */
export function closedObjects<T extends TSchema>(schema: T): T {
  return closeNode(schema) as T;
}

function closeNode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(closeNode);
  if (!isNode(value)) return value;
  const copy: Node = {};
  for (const key of Reflect.ownKeys(value)) copy[key] = value[key];
  if (isNode(value.properties)) {
    copy.properties = Object.fromEntries(Object.entries(value.properties).map(([name, property]) => [name, closeNode(property)]));
    if (value.type === 'object' && value.additionalProperties === undefined) copy.additionalProperties = false;
  }
  // Type.Record writes its value schema under patternProperties.
  if (isNode(value.patternProperties)) {
    copy.patternProperties = Object.fromEntries(Object.entries(value.patternProperties).map(([pattern, property]) => [pattern, closeNode(property)]));
  }
  for (const key of SCHEMA_KEYS) if (isNode(value[key])) copy[key] = closeNode(value[key]);
  for (const key of SCHEMA_LIST_KEYS) if (Array.isArray(value[key])) copy[key] = (value[key] as unknown[]).map(closeNode);
  return copy;
}
