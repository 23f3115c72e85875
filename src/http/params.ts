import { invalidField } from '../domain/errors.js';
import { parseTimestamp } from '../lib/time.js';

/**
 * An RFC 3339 timestamp parameter; without a zone it is a 400 (resolutions §0). A query string decodes an
 * unencoded "+01:00" offset to " 01:00" ('+' means space in forms), so a space before a trailing offset
 * is read back as the '+' the client meant.
 */
export function timestampParam(field: string, value: string): Date {
  const parsed = parseTimestamp(value.replace(/(\d{2}:\d{2}:\d{2}(?:\.\d+)?) (\d{2}:\d{2})$/, '$1+$2'));
  if (!parsed) {
    throw invalidField(field, `"${value}" is not an RFC 3339 timestamp with a time zone (e.g. 2026-11-21T22:13:08Z)`);
  }
  return parsed;
}

export function optionalTimestampParam(field: string, value: string | undefined): Date | null {
  return value === undefined || value === '' ? null : timestampParam(field, value);
}

/** v1 array parameters: comma-separated values and repeated keys both work (resolutions §0). */
export function listParam(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const values = Array.isArray(value) ? value : [value];
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

/**
 * v1 `skus`: like listParam, but a value wrapped in one pair of single or double quotes (`skus='A,B'`, as
 * a public example sends it) is unwrapped before the comma split (resolutions §7). Any other quote is part
 * of a SKU and kept: `A'B`, `'A`, `"A'`.
 */
export function skusParam(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const values = Array.isArray(value) ? value : [value];
  return listParam(values.map(unwrapQuotes));
}

function unwrapQuotes(value: string): string {
  const v = value.trim();
  const quote = v[0];
  return v.length >= 2 && (quote === "'" || quote === '"') && v.endsWith(quote) ? v.slice(1, -1) : value;
}

export function booleanParam(field: string, value: string | boolean | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (typeof value === 'boolean') return value;
  const v = value.toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw invalidField(field, `must be true or false, got "${value}"`);
}

export function integerListParam(field: string, value: string | string[] | undefined): number[] {
  return listParam(value).map((v) => {
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw invalidField(field, `"${v}" is not a whole number`);
    return Number(v);
  });
}

/**
 * v2 query parameters accept the camelCase or the snake_case name (resolutions §0): returns the value
 * under either name.
 */
export function v2Query(query: Record<string, unknown>, camel: string): unknown {
  if (query[camel] !== undefined) return query[camel];
  const snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return query[snake];
}
