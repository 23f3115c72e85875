import { normalizeFieldName } from '../../catalog/product-fields.js';

/**
 * Maps a file's header to a fixed set of columns (resolutions §8: names compare case-insensitively with
 * spaces and `_` equal). Returns each column's index, the headers not recognised, and duplicates.
 */
export function mapHeader<C extends string>(
  header: string[],
  columns: readonly C[],
  aliases: Partial<Record<string, C>> = {},
): { index: Partial<Record<C, number>>; unknown: string[]; duplicates: string[]; actual: (C | null)[] } {
  const known = new Map<string, C>();
  for (const c of columns) known.set(normalizeFieldName(c), c);
  for (const [alias, c] of Object.entries(aliases)) if (c) known.set(normalizeFieldName(alias), c);
  const index: Partial<Record<C, number>> = {};
  const unknown: string[] = [];
  const duplicates: string[] = [];
  const actual: (C | null)[] = [];
  header.forEach((h, i) => {
    const column = known.get(normalizeFieldName(h)) ?? null;
    actual.push(column);
    if (column === null) unknown.push(h);
    else if (index[column] !== undefined) duplicates.push(h);
    else index[column] = i;
  });
  return { index, unknown, duplicates, actual };
}
