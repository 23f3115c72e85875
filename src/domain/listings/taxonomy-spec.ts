import { enumByNameOrNumber } from '../../lib/proto-enum.js';
import { invalidArgument, invalidFields, type FieldViolation } from '../errors.js';

/**
 * Attribute specifications (document 2.15, resolutions §4): the enum vocabularies, reading a spec as a
 * channel sends it (proto3 JSON: camelCase or snake_case names, enums by name or number, int64 as string
 * or number, null meaning unset) and the stored form. Every problem is collected, so one 400 names each
 * bad field.
 */

/** Proto enum order: index = enum number. */
export const SPEC_TYPES = [
  'TYPE_UNSPECIFIED',
  'TYPE_TEXT',
  'TYPE_SELECT',
  'TYPE_NUMERIC',
  'TYPE_NUMERIC_WITH_UNITS',
  'TYPE_MULTI_TEXT',
  'TYPE_MULTI_SELECT',
  'TYPE_MONEY',
  'TYPE_MULTI_OBJECT',
] as const;
export const SPEC_LEVELS = ['LEVEL_UNSPECIFIED', 'LEVEL_LISTING', 'LEVEL_VARIANT'] as const;
export const SPEC_CLASSIFICATIONS = [
  'CLASSIFICATION_UNSPECIFIED',
  'CLASSIFICATION_PRODUCT',
  'CLASSIFICATION_INVENTORY',
  'CLASSIFICATION_PRICING',
  'CLASSIFICATION_LOGISTICS',
  'CLASSIFICATION_IDENTIFIER',
] as const;
export const SPEC_USAGES = ['USAGE_UNSPECIFIED', 'USAGE_AVAILABLE', 'USAGE_REQUIRED', 'USAGE_RECOMMENDED'] as const;

export type SpecType = (typeof SPEC_TYPES)[number];

/** Ids of product types and attribute specs: the id limit of resolutions §7 (255 characters). */
export const MAX_ID_LENGTH = 255;
/** Entries of one list (validValues, examples…) and keys of one map (objectSpec…). */
export const MAX_LIST_ITEMS = 10_000;
export const MAX_MAP_KEYS = 1_000;
/** max_unique_items is an INTEGER column (int4 on PostgreSQL). */
export const MAX_UNIQUE_ITEMS_LIMIT = 2_147_483_647;

/** The spec as stored in taxonomy_attribute_specs.spec (ids, maxUniqueItems and timestamps live in columns). */
export interface StoredSpec {
  displayName: string;
  type: SpecType;
  validValues: string[];
  validUnits: string[];
  objectSpec: Record<string, SpecType>;
  objectFieldSpecs: Record<string, { type: SpecType; validValues: string[] }>;
  unit: string;
  level: (typeof SPEC_LEVELS)[number];
  classification: (typeof SPEC_CLASSIFICATIONS)[number];
  usage: (typeof SPEC_USAGES)[number];
  description: string;
  examples: string[];
  suggestedValues: string[];
}

export interface ParsedSpec {
  /** As sent; '' when absent (the PUT with the id in the path fills it in). */
  attributeSpecId: string;
  spec: StoredSpec;
  /** null = no limit (0 or absent on input). */
  maxUniqueItems: number | null;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const snakeOf = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Reads fields of one JSON object under their camelCase or snake_case name, recording violations with the
 * name the client used, prefixed by the object's path.
 */
class FieldReader {
  constructor(
    private readonly o: Json,
    private readonly path: string,
    private readonly violations: FieldViolation[],
  ) {}

  /** The value and the name it came under (camelCase wins when both are sent). */
  raw(camel: string): { value: unknown; name: string } {
    const snake = snakeOf(camel);
    const name = this.o[camel] === undefined && this.o[snake] !== undefined ? snake : camel;
    const value = this.o[name];
    return { value: value === null ? undefined : value, name: this.path ? `${this.path}.${name}` : name };
  }

  fail(name: string, description: string): void {
    this.violations.push({ field: name, description });
  }

  text(camel: string): string {
    const { value, name } = this.raw(camel);
    if (value === undefined) return '';
    if (typeof value !== 'string') {
      this.fail(name, 'must be a string');
      return '';
    }
    return value;
  }

  list(camel: string): string[] {
    const { value, name } = this.raw(camel);
    return readList(value, name, this.violations);
  }

  enumOf<T extends string>(camel: string, values: readonly T[]): T {
    const { value, name } = this.raw(camel);
    return readEnum(value, name, values, this.violations);
  }
}

function readList(value: unknown, name: string, violations: FieldViolation[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    violations.push({ field: name, description: 'must be an array of strings' });
    return [];
  }
  if (value.length > MAX_LIST_ITEMS) {
    violations.push({ field: name, description: `must not have more than ${MAX_LIST_ITEMS} items` });
    return [];
  }
  const bad = value.findIndex((v) => typeof v !== 'string');
  if (bad >= 0) {
    violations.push({ field: `${name}[${bad}]`, description: 'must be a string' });
    return [];
  }
  return value as string[];
}

function readEnum<T extends string>(value: unknown, name: string, values: readonly T[], violations: FieldViolation[]): T {
  if (value === undefined || value === null) return values[0]!;
  const found = enumByNameOrNumber(values, value);
  if (found === undefined) {
    violations.push({ field: name, description: `must be one of ${values.join(', ')} (or the enum number 0–${values.length - 1})` });
    return values[0]!;
  }
  return found;
}

function readMap(value: unknown, name: string, violations: FieldViolation[]): Json {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) {
    violations.push({ field: name, description: 'must be an object (a map keyed by sub-attribute name)' });
    return {};
  }
  if (Object.keys(value).length > MAX_MAP_KEYS) {
    violations.push({ field: name, description: `must not have more than ${MAX_MAP_KEYS} keys` });
    return {};
  }
  return value;
}

function readMaxUniqueItems(reader: FieldReader): number | null {
  const { value, name } = reader.raw('maxUniqueItems');
  if (value === undefined) return null;
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : typeof value === 'number' ? value : NaN;
  if (!Number.isInteger(n)) {
    reader.fail(name, 'must be a whole number (int64, as a string or a number)');
    return null;
  }
  if (n < 0) {
    reader.fail(name, 'must be >= 0 (0 means no limit)');
    return null;
  }
  if (n > MAX_UNIQUE_ITEMS_LIMIT) {
    reader.fail(name, `must be <= ${MAX_UNIQUE_ITEMS_LIMIT}`);
    return null;
  }
  return n === 0 ? null : n;
}

/** A product type or attribute spec id: non-empty text of sane length. */
export function idViolation(value: string): string | null {
  if (value.trim() === '') return 'must not be empty';
  if (value.length > MAX_ID_LENGTH) return `must be at most ${MAX_ID_LENGTH} characters`;
  return null;
}

/**
 * Reads an attribute spec body (the object under attributeSpec). Throws INVALID_ARGUMENT listing every
 * problem; unknown fields are ignored (resolutions §0), createdAt/updatedAt are the service's own.
 */
export function parseAttributeSpec(input: unknown, path: string): ParsedSpec {
  const violations: FieldViolation[] = [];
  if (!isObject(input)) throw invalidArgument(`${path}: must be an object`, [{ field: path, description: 'must be an object' }]);
  const r = new FieldReader(input, path, violations);

  const attributeSpecId = r.text('attributeSpecId');
  if (attributeSpecId !== '') {
    const problem = idViolation(attributeSpecId);
    if (problem) r.fail(r.raw('attributeSpecId').name, problem);
  }
  const type = r.enumOf('type', SPEC_TYPES);
  const spec: StoredSpec = {
    displayName: r.text('displayName'),
    type,
    validValues: r.list('validValues'),
    validUnits: r.list('validUnits'),
    objectSpec: {},
    objectFieldSpecs: {},
    unit: r.text('unit'),
    level: r.enumOf('level', SPEC_LEVELS),
    classification: r.enumOf('classification', SPEC_CLASSIFICATIONS),
    usage: r.enumOf('usage', SPEC_USAGES),
    description: r.text('description'),
    examples: r.list('examples'),
    suggestedValues: r.list('suggestedValues'),
  };
  const maxUniqueItems = readMaxUniqueItems(r);

  // Maps are built with Object.fromEntries so that any key (even "__proto__") stays an own property.
  const objectSpec = r.raw('objectSpec');
  spec.objectSpec = Object.fromEntries(
    Object.entries(readMap(objectSpec.value, objectSpec.name, violations)).map(([key, value]) => [
      key,
      readEnum(value, `${objectSpec.name}.${key}`, SPEC_TYPES, violations),
    ]),
  );
  const fieldSpecs = r.raw('objectFieldSpecs');
  spec.objectFieldSpecs = Object.fromEntries(
    Object.entries(readMap(fieldSpecs.value, fieldSpecs.name, violations)).map(([key, value]) => {
      const name = `${fieldSpecs.name}.${key}`;
      if (!isObject(value)) {
        violations.push({ field: name, description: 'must be an object {type, validValues}' });
        return [key, { type: SPEC_TYPES[0], validValues: [] }];
      }
      const sub = new FieldReader(value, name, violations);
      return [key, { type: sub.enumOf('type', SPEC_TYPES), validValues: sub.list('validValues') }];
    }),
  );
  // Sub-attribute descriptions only mean something for a multi-object attribute; elsewhere they are a
  // mistake the channel should hear about rather than data silently kept.
  if (type !== 'TYPE_MULTI_OBJECT') {
    for (const map of [objectSpec, fieldSpecs]) {
      if (isObject(map.value) && Object.keys(map.value).length > 0) {
        violations.push({ field: map.name, description: `only allowed when type is TYPE_MULTI_OBJECT (type is ${type})` });
      }
    }
  }

  if (violations.length > 0) {
    throw invalidFields(violations);
  }
  return { attributeSpecId, spec, maxUniqueItems };
}

/** The stored JSON back as a StoredSpec; fields missing from older rows read as their defaults. */
export function readStoredSpec(text: string): StoredSpec {
  const o = JSON.parse(text) as Partial<StoredSpec>;
  return {
    displayName: o.displayName ?? '',
    type: o.type ?? 'TYPE_UNSPECIFIED',
    validValues: o.validValues ?? [],
    validUnits: o.validUnits ?? [],
    objectSpec: o.objectSpec ?? {},
    objectFieldSpecs: o.objectFieldSpecs ?? {},
    unit: o.unit ?? '',
    level: o.level ?? 'LEVEL_UNSPECIFIED',
    classification: o.classification ?? 'CLASSIFICATION_UNSPECIFIED',
    usage: o.usage ?? 'USAGE_UNSPECIFIED',
    description: o.description ?? '',
    examples: o.examples ?? [],
    suggestedValues: o.suggestedValues ?? [],
  };
}
