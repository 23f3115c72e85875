/**
 * One object literal for a statement's columns: every row gets the same shape at once, where setting the
 * properties one by one (better-sqlite3's and node-postgres's own row objects) costs a keyed store per value.
 * Column names come from our own SQL and are quoted with JSON.stringify; a repeated name keeps its last value,
 * as the drivers' objects do. A column named __proto__ would set the prototype in a literal: no factory then
 * (null), and the caller takes the driver's objects.
 */
export function rowFactory(columns: readonly string[]): ((values: readonly unknown[]) => unknown) | null {
  if (columns.includes('__proto__')) return null;
  const body = `return { ${columns.map((c, i) => `${JSON.stringify(c)}: v[${i}]`).join(', ')} };`;
  return new Function('v', body) as (values: readonly unknown[]) => unknown;
}
