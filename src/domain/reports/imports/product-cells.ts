import type { ProductField } from '../../catalog/product-fields.js';
import { MAX_FREE_TEXT_LENGTH, MAX_NAME_LENGTH, longerThan } from '../../text-limits.js';
import { clip } from './cells.js';

/**
 * Reads one non-blank cell of a product file as the value stored for its field (product-fields.ts kinds).
 * Values are stored as text; a boolean becomes '1' or '0' (the products.active column). The message says
 * what is wrong with the cell; the caller prefixes the column header.
 */
export function readFieldCell(field: ProductField, text: string): { value: string } | { error: string } {
  switch (field.kind) {
    case 'decimal':
      return readDecimal(text);
    case 'boolean':
      return readBoolean(text);
    case 'identifier':
      return readIdentifier(field, text);
    case 'enum':
      return readEnum(field, text);
    case 'text':
    case 'timestamp': {
      const max = field.name === 'title' ? MAX_NAME_LENGTH : MAX_FREE_TEXT_LENGTH;
      if (longerThan(text, max)) return { error: `is longer than ${max.toLocaleString('en-US')} characters` };
      return { value: text };
    }
  }
}

/** Attribute values are free text, like the seller's other long values. */
export function attributeValueProblem(text: string): string | null {
  return longerThan(text, MAX_FREE_TEXT_LENGTH) ? `is longer than ${MAX_FREE_TEXT_LENGTH.toLocaleString('en-US')} characters` : null;
}

// Digits with an optional fraction; no sign, exponent, currency or grouping: a stored price must read back
// exactly as the seller meant it, and "1e5" or "1,200" are too easy to misread.
const DECIMAL = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;
const MAX_INTEGER_DIGITS = 20;
const MAX_FRACTION_DIGITS = 10;

function readDecimal(text: string): { value: string } | { error: string } {
  const match = DECIMAL.exec(text);
  if (!match) {
    const hint = text.startsWith('-') ? ' (negative values are not allowed)' : /e/i.test(text) ? ' (write it without an exponent)' : '';
    return { error: `"${clip(text)}" is not a non-negative decimal number like 12.5${hint}` };
  }
  // Leading zeros go ("007.50" → "7.50", ".5" → "0.5", "5." → "5"); the fraction stays as written.
  const whole = (match[1] ?? '0').replace(/^0+(?=\d)/, '');
  const fraction = match[2] ?? match[3] ?? '';
  if (whole.length > MAX_INTEGER_DIGITS || fraction.length > MAX_FRACTION_DIGITS) {
    return { error: `"${clip(text)}" has more than ${MAX_INTEGER_DIGITS} digits before or ${MAX_FRACTION_DIGITS} after the decimal point` };
  }
  return { value: fraction === '' ? whole : `${whole}.${fraction}` };
}

const TRUE_WORDS = new Set(['true', '1', 'yes']);
const FALSE_WORDS = new Set(['false', '0', 'no']);

function readBoolean(text: string): { value: string } | { error: string } {
  const word = text.toLowerCase();
  if (TRUE_WORDS.has(word)) return { value: '1' };
  if (FALSE_WORDS.has(word)) return { value: '0' };
  return { error: `"${clip(text)}" is not a boolean (TRUE, FALSE, 1, 0, yes or no)` };
}

function readIdentifier(field: ProductField, text: string): { value: string } | { error: string } {
  const lengths = field.lengths ?? [];
  const wanted = lengths.length === 1 ? `${lengths[0]}` : `${lengths.slice(0, -1).join(', ')} or ${lengths[lengths.length - 1]}`;
  if (!/^\d+$/.test(text)) return { error: `"${clip(text)}" is not a valid ${field.name.toUpperCase()}: it must be ${wanted} digits` };
  if (lengths.length > 0 && !lengths.includes(text.length)) {
    // The usual cause: a spreadsheet read the code as a number and dropped its leading zeros.
    const zeros = text.length < Math.max(...lengths) ? '; a spreadsheet may have dropped leading zeros (format the column as text)' : '';
    return { error: `"${clip(text)}" has ${text.length} digit${text.length === 1 ? '' : 's'}; a ${field.name.toUpperCase()} has ${wanted}${zeros}` };
  }
  return { value: text };
}

function readEnum(field: ProductField, text: string): { value: string } | { error: string } {
  const values = field.values ?? [];
  const found = values.find((v) => v.toLowerCase() === text.toLowerCase());
  if (found === undefined) return { error: `"${clip(text)}" is not one of ${values.join(', ')}` };
  return { value: found };
}
