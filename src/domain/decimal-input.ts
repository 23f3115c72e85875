import { isPlainDecimal, normalizeDecimal } from '../lib/decimal.js';
import { invalidField } from './errors.js';

/**
 * Money and measures are kept as decimal strings (never floats in storage or arithmetic: src/lib/decimal.ts).
 * v1 JSON carries them as numbers (document 2.10), so input numbers are read back through their shortest
 * decimal form (19.99 stays "19.99") and strings are accepted as they are. Shared by the areas that take such
 * values (orders, inbound); here rather than in lib/ because its refusals are the API's errors.
 */
export function decimalInput(field: string, value: number | string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalidField(field, 'must be a finite number').because('order.amount_not_a_number', {});
    // Exponent forms (1e-7, 1e21) have no exact short decimal spelling here: refuse rather than round.
    const text = String(value);
    if (!isPlainDecimal(text)) throw invalidField(field, `${text} is outside the supported decimal range`).because('order.amount_not_a_number', {});
    return text;
  }
  const text = value.trim();
  if (!isPlainDecimal(text)) throw invalidField(field, `"${value}" is not a decimal number`).because('order.amount_not_a_number', {});
  return normalizeDecimal(text);
}
