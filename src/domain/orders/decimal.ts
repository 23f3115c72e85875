import { invalidField } from '../errors.js';

/**
 * Money and measures are kept as decimal strings (never floats in storage or arithmetic). v1 JSON carries
 * them as numbers (document 2.10), so input numbers are read back through their shortest decimal form
 * (19.99 stays "19.99") and strings are accepted as they are.
 */
const DECIMAL = /^-?\d+(\.\d+)?$/;

export function decimalInput(field: string, value: number | string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalidField(field, 'must be a finite number').because('order.amount_not_a_number', {});
    // Exponent forms (1e-7, 1e21) have no exact short decimal spelling here: refuse rather than round.
    const text = String(value);
    if (!DECIMAL.test(text)) throw invalidField(field, `${text} is outside the supported decimal range`).because('order.amount_not_a_number', {});
    return text;
  }
  const text = value.trim();
  if (!DECIMAL.test(text)) throw invalidField(field, `"${value}" is not a decimal number`).because('order.amount_not_a_number', {});
  return normalizeDecimal(text);
}

/** Drops redundant zeros ("007.50" → "7.5", "-0" → "0") so equal amounts compare equal as text. */
export function normalizeDecimal(text: string): string {
  const negative = text.startsWith('-');
  const [intPart = '0', frac = ''] = (negative ? text.slice(1) : text).split('.');
  const int = intPart.replace(/^0+(?=\d)/, '');
  const fraction = frac.replace(/0+$/, '');
  const body = fraction ? `${int}.${fraction}` : int;
  return negative && body !== '0' ? `-${body}` : body;
}

/** The v1 JSON number for a stored decimal string. */
export function decimalOutput(text: string | null): number | null {
  return text === null ? null : Number(text);
}
