import { invalidField } from '../../errors.js';

/**
 * The field delimiter a report or validation names (`delimiter`): "," when absent, `\t` or "tab" for a tab,
 * else one character that cannot be part of a value's quoting. One reading for exports, imports and
 * validations, checked when the request is made (a 400 then, never a report that fails later).
 */
export function fileDelimiter(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return ',';
  const delimiter = value === '\\t' || value.toLowerCase() === 'tab' ? '\t' : value;
  if ([...delimiter].length !== 1 || /["\r\n]/.test(delimiter)) {
    throw invalidField('delimiter', 'must be one character other than a quote or a line break (\\t or "tab" for a tab)');
  }
  return delimiter;
}
