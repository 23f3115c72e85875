/**
 * String limits (resolutions §7): a SKU is 1 to 255 characters without control characters; other ids at
 * most 255; names and titles 1,000; free text 64 KiB. The HTTP schemas apply them to typed fields
 * (src/http/schemas/common.ts); domain code applies them to values it parses itself (attribute values).
 * Lengths count characters (Unicode code points), as JSON Schema's maxLength does.
 */
export const MAX_SKU_LENGTH = 255;
export const MAX_ID_LENGTH = 255;
export const MAX_NAME_LENGTH = 1000;
export const MAX_FREE_TEXT_LENGTH = 64 * 1024;

/** No C0 or C1 control character and no DEL anywhere in the value (a JSON Schema pattern; SKUs follow it). */
export const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';
const NO_CONTROL = new RegExp(NO_CONTROL_CHARACTERS);

/** What is wrong with a SKU the domain reads itself (a file's cell), or null: the rule the schemas' Sku applies. */
export function skuProblem(sku: string): string | null {
  if (sku === '') return 'is required';
  if (longerThan(sku, MAX_SKU_LENGTH)) return `is longer than ${MAX_SKU_LENGTH} characters`;
  if (!NO_CONTROL.test(sku)) return 'holds a control character';
  return null;
}

/** True when `value` has more than `max` code points (UTF-16 length is an upper bound, so most values skip the count). */
export function longerThan(value: string, max: number): boolean {
  if (value.length <= max) return false;
  let count = 0;
  for (const _ of value) if (++count > max) return true;
  return false;
}
