import { invalidField } from '../errors.js';
import { decimalInput } from '../decimal-input.js';
import { compare, decimalPlaces } from '../../lib/decimal.js';
import { parseTimestamp } from '../../lib/time.js';

/**
 * Values of the inbound bodies that the schemas cannot check alone. Costs are v1 numbers (document 2.5) kept
 * as decimal strings: at most 4 decimals and below a billion, so the stored text, the JSON number and the
 * arithmetic (decimal.js, never floats) all agree.
 */
export const MAX_COST_DECIMALS = 4;
const MAX_COST = 1_000_000_000;

export function costInput(field: string, value: number | string | null | undefined): string | null {
  const text = decimalInput(field, value);
  if (text === null) return null;
  if (text.startsWith('-')) throw invalidField(field, 'must not be negative');
  if (decimalPlaces(text) > MAX_COST_DECIMALS) throw invalidField(field, `has more than ${MAX_COST_DECIMALS} decimals`);
  if (compare(text, MAX_COST) >= 0) throw invalidField(field, `must be below ${MAX_COST.toLocaleString('en-US')}`);
  return text;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * An expected delivery date (document 2.3: a date): YYYY-MM-DD, or an RFC 3339 timestamp whose UTC date is
 * kept. null clears it.
 */
export function deliveryDateInput(field: string, value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const text = value.trim();
  const date = DATE_ONLY.exec(text);
  if (date) {
    const parsed = parseTimestamp(`${text}T00:00:00Z`);
    if (parsed) return text;
  } else {
    const parsed = parseTimestamp(text);
    if (parsed) return parsed.toISOString().slice(0, 10);
  }
  throw invalidField(field, `"${value.slice(0, 40)}" is not a date (YYYY-MM-DD) or an RFC 3339 timestamp with a time zone`);
}

/** Optional short text: trimmed, blank is null. */
export function optionalShortText(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}
