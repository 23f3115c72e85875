import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { DbHandle } from '../../src/db/connect.js';
import { createTestDatabase } from '../helpers/app.js';
import { REPO_ROOT } from '../helpers/repo-root.js';
import { declaredTables, type DeclaredTable } from './schema-declared.js';
import { migratedTables, type MigratedColumn, type MigratedTables } from './schema-migrated.js';

/**
 * src/db/schema.ts is written by hand beside the migrations, which are the truth: this compares it with a
 * freshly migrated database of the dialect the run uses (SQLite, or PostgreSQL under TEST_DATABASE_URL).
 * Each check lists every difference it finds, naming the table, the column and what to change.
 */
const SCHEMA_FILE = 'src/db/schema.ts';

describe(`${SCHEMA_FILE} matches the migrated database`, () => {
  let handle: DbHandle;
  let drop: () => Promise<void>;
  let declared: Map<string, DeclaredTable>;
  let migrated: MigratedTables;

  before(async () => {
    ({ handle, drop } = await createTestDatabase());
    declared = declaredTables(path.join(REPO_ROOT, SCHEMA_FILE));
    migrated = await migratedTables(handle);
  });

  after(async () => {
    await handle.close();
    await drop();
  });

  /** The tables on both sides (a missing table is the first check's to report, not every column's). */
  function tablesOnBothSides(): { name: string; table: DeclaredTable; columns: Map<string, MigratedColumn> }[] {
    return [...declared].flatMap(([name, table]) => {
      const columns = migrated.get(name);
      return columns ? [{ name, table, columns }] : [];
    });
  }

  function assertNone(problems: string[], what: string) {
    assert.deepEqual(problems, [], `${problems.length} ${what} (${handle.dialect}):\n  ${problems.join('\n  ')}`);
  }

  it('every migrated table is in the Database interface, and every entry of it is a table', () => {
    const problems: string[] = [];
    for (const name of migrated.keys()) {
      if (!declared.has(name)) problems.push(`table ${name}: in the migrated database, missing from the Database interface`);
    }
    for (const [name, table] of declared) {
      if (!migrated.has(name)) problems.push(`Database.${name} (${table.interfaceName}): no such table in the migrated database`);
    }
    assertNone(problems, 'table differences');
  });

  it('every column of a table is a property of its interface, and every property is a column', () => {
    const problems: string[] = [];
    for (const { name, table, columns } of tablesOnBothSides()) {
      for (const column of columns.keys()) {
        if (!table.columns.has(column)) problems.push(`${name}.${column}: a column in the database, missing from ${table.interfaceName}`);
      }
      for (const property of table.columns.keys()) {
        if (!columns.has(property)) problems.push(`${table.interfaceName}.${property}: no column ${property} in table ${name}`);
      }
    }
    assertNone(problems, 'column differences');
  });

  it('a nullable column has `| null` in its type, and a NOT NULL column does not', () => {
    const problems: string[] = [];
    for (const { name, table, columns } of tablesOnBothSides()) {
      for (const [column, { nullable }] of columns) {
        const property = table.columns.get(column);
        if (!property || property.nullable === nullable) continue;
        problems.push(
          nullable
            ? `${name}.${column}: nullable in the database, but ${table.interfaceName}.${column} is \`${property.typeText}\` (add | null)`
            : `${name}.${column}: NOT NULL in the database, but ${table.interfaceName}.${column} is \`${property.typeText}\` (drop | null)`,
        );
      }
    }
    assertNone(problems, 'nullability differences');
  });

  // The converse is allowed: a column with a default may still be required on insert by the types.
  it('a Generated<…> column can be left out of an insert: the database fills it or it may be null', () => {
    const problems: string[] = [];
    for (const { name, table, columns } of tablesOnBothSides()) {
      for (const [column, { nullable, filled }] of columns) {
        const property = table.columns.get(column);
        if (!property?.generated || nullable || filled) continue;
        problems.push(`${name}.${column}: NOT NULL without a default, but ${table.interfaceName}.${column} is \`${property.typeText}\` (drop Generated)`);
      }
    }
    assertNone(problems, 'insert differences');
  });
});
