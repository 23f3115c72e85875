import { isPlainDecimal } from '../../lib/decimal.js';
import { invalidField } from '../errors.js';
import { longerThan, MAX_FREE_TEXT_LENGTH, MAX_ID_LENGTH } from '../text-limits.js';
import { VALUE_KINDS, type AttributeInput, type AttributeValueKinds } from './model.js';

/**
 * Validation of attribute values as partners and sellers send them (2.11). The HTTP schemas accept any
 * object here because the value kinds nest (multiObjectValue); this is where the shape is enforced, with
 * messages that name the exact field.
 */

const CURRENCY = /^[A-Z]{3}$/;
/**
 * How deep multiObjectValue may nest: deep enough for any real product; stops a hostile body from recursing
 * without end. The answer schemas spell the nesting out to this depth (http/schemas/listings.ts).
 */
export const MAX_MULTI_OBJECT_DEPTH = 5;
const MAX_DEPTH = MAX_MULTI_OBJECT_DEPTH;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Proto3 JSON accepts snake_case names; the value kinds are read under either spelling. */
const SNAKE: Record<string, string> = {
  textValue: 'text_value',
  numericValue: 'numeric_value',
  numericWithUnitsValue: 'numeric_with_units_value',
  multiTextValue: 'multi_text_value',
  moneyValue: 'money_value',
  multiObjectValue: 'multi_object_value',
};

function field(o: Json, camel: string): unknown {
  return o[camel] ?? o[SNAKE[camel] ?? camel] ?? (camel === 'currencyCode' ? o['currency_code'] : undefined);
}

/** A money amount as a decimal string; a JSON number is accepted and kept as its decimal text. */
export function moneyAmount(path: string, value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value).includes('e') ? fail(path, 'must be a decimal string') : String(value);
  if (typeof value !== 'string' || !isPlainDecimal(value)) return fail(path, 'must be a decimal string such as "19.99"');
  return value;
}

function fail(path: string, description: string): never {
  throw invalidField(path, description);
}

function finite(path: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, 'must be a number');
  return value;
}

/** A text value: free text (64 KiB), or an id-like value such as units (255), resolutions §7. */
function text(path: string, value: unknown, max = MAX_FREE_TEXT_LENGTH): string {
  if (typeof value !== 'string') fail(path, 'must be a string');
  if (longerThan(value, max)) fail(path, `must be at most ${max} characters`);
  return value;
}

/** Reads exactly one value kind from `o`; path names the object for messages. */
export function checkValueKinds(path: string, o: Json, depth = 0): AttributeValueKinds {
  if (depth > MAX_DEPTH) fail(path, `multiObjectValue nests more than ${MAX_DEPTH} levels`);
  const present = VALUE_KINDS.filter((k) => field(o, k) !== undefined && field(o, k) !== null);
  if (present.length !== 1) {
    fail(path, present.length === 0 ? `needs one of ${VALUE_KINDS.join(', ')}` : `has more than one value kind (${present.join(', ')})`);
  }
  const kind = present[0]!;
  const raw = field(o, kind);
  const at = `${path}.${kind}`;
  switch (kind) {
    case 'textValue':
      return { textValue: text(at, raw) };
    case 'numericValue':
      return { numericValue: finite(at, raw) };
    case 'numericWithUnitsValue': {
      if (!isObject(raw)) return fail(at, 'must be an object {numeric, units}');
      return { numericWithUnitsValue: { numeric: finite(`${at}.numeric`, raw['numeric']), units: text(`${at}.units`, raw['units'] ?? '', MAX_ID_LENGTH) } };
    }
    case 'multiTextValue': {
      const values = isObject(raw) ? raw['values'] : undefined;
      if (!Array.isArray(values)) return fail(`${at}.values`, 'must be an array of strings');
      return { multiTextValue: { values: values.map((v, i) => text(`${at}.values[${i}]`, v)) } };
    }
    case 'moneyValue': {
      if (!isObject(raw)) return fail(at, 'must be an object {amount, currencyCode}');
      const currencyCode = text(`${at}.currencyCode`, field(raw, 'currencyCode'));
      if (!CURRENCY.test(currencyCode)) fail(`${at}.currencyCode`, 'must be an ISO 4217 code such as USD');
      return { moneyValue: { amount: moneyAmount(`${at}.amount`, raw['amount']), currencyCode } };
    }
    case 'multiObjectValue': {
      const items = isObject(raw) ? raw['items'] : undefined;
      if (!Array.isArray(items)) return fail(`${at}.items`, 'must be an array');
      return {
        multiObjectValue: {
          items: items.map((item, i) => {
            const props = isObject(item) ? item['properties'] : undefined;
            if (!isObject(props)) return fail(`${at}.items[${i}].properties`, 'must be an object of value kinds');
            const properties: Record<string, AttributeValueKinds> = {};
            for (const [key, value] of Object.entries(props)) {
              if (longerThan(key, MAX_ID_LENGTH)) fail(`${at}.items[${i}].properties`, `a property name is longer than ${MAX_ID_LENGTH} characters`);
              if (!isObject(value)) fail(`${at}.items[${i}].properties.${key}`, 'must be an object holding one value kind');
              properties[key] = checkValueKinds(`${at}.items[${i}].properties.${key}`, value, depth + 1);
            }
            return { properties };
          }),
        },
      };
    }
  }
}

/**
 * Validates a list of attribute values (`path` names the list, e.g. "variants[0].productData.attributes"):
 * each has a non-empty id and exactly one value kind; ids are unique within the list. Read-only fields
 * (versionId, updatedAt, submittedAt) are ignored: the service assigns them.
 */
export function checkAttributeInputs(path: string, attrs: unknown): AttributeInput[] {
  if (attrs === undefined || attrs === null) return [];
  if (!Array.isArray(attrs)) fail(path, 'must be an array of attribute values');
  const seen = new Set<string>();
  return attrs.map((a, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(a)) fail(at, 'must be an object');
    const id = a['id'];
    if (typeof id !== 'string' || id.trim() === '') fail(`${at}.id`, 'must be a non-empty string');
    if (longerThan(id, MAX_ID_LENGTH)) fail(`${at}.id`, `must be at most ${MAX_ID_LENGTH} characters`);
    if (seen.has(id)) fail(`${at}.id`, `attribute "${id}" appears twice`);
    seen.add(id);
    return { id, ...checkValueKinds(at, a) };
  });
}

/** Canonical text of a value, so "changed" means the value differs, not its key order. */
export function canonicalValue(value: AttributeValueKinds): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isObject(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
  return v;
}

/** The value kinds of an input (its id dropped). */
export function valueOf(input: AttributeInput): AttributeValueKinds {
  const { id: _id, ...kinds } = input;
  return kinds;
}
