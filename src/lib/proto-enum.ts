/**
 * Reads a proto enum the way proto3 JSON allows (resolutions §0): by name, or by its number (the index in
 * `values`, which lists the enum in proto order). Anything else is undefined, for the caller to refuse.
 */
export function enumByNameOrNumber<T extends string>(values: readonly T[], raw: unknown): T | undefined {
  if (typeof raw === 'number') return Number.isInteger(raw) && raw >= 0 ? values[raw] : undefined;
  if (typeof raw === 'string') return values.find((v) => v === raw);
  return undefined;
}
