import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** Kysely's column wrappers; each takes the select type first (the insert and update types do not count here). */
const KNOWN_WRAPPERS = new Set(['Generated', 'GeneratedAlways', 'ColumnType']);

/** One property of a table interface in src/db/schema.ts. */
export interface DeclaredColumn {
  /** The property's type as written, for messages. */
  typeText: string;
  /** Whether a selected value may be null (`| null`, also inside Generated<…> or ColumnType's select type). */
  nullable: boolean;
  /** Generated<…> or GeneratedAlways<…>: an insert may (or must) leave the column out. */
  generated: boolean;
}

export interface DeclaredTable {
  /** The table interface's name, e.g. AccountsTable. */
  interfaceName: string;
  columns: Map<string, DeclaredColumn>;
}

/**
 * The tables src/db/schema.ts declares: the members of its `Database` interface, each resolved to the table
 * interface in the same file. Read with the compiler's parser only (no type checker), so the file must keep
 * the plain shape it has: an interface per table, property signatures only. Anything else is an error here
 * rather than a silently skipped table or column.
 */
export function declaredTables(file: string): Map<string, DeclaredTable> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement);
  }
  const database = interfaces.get('Database');
  if (!database) throw new Error(`${file} has no Database interface`);

  const tables = new Map<string, DeclaredTable>();
  for (const member of database.members) {
    const { name, type } = property(member, 'Database');
    if (!ts.isTypeReferenceNode(type) || !ts.isIdentifier(type.typeName)) {
      throw new Error(`Database.${name} must name a table interface declared in ${file}`);
    }
    const table = interfaces.get(type.typeName.text);
    if (!table) throw new Error(`Database.${name}: interface ${type.typeName.text} is not declared in ${file}`);
    tables.set(name, { interfaceName: table.name.text, columns: declaredColumns(table) });
  }
  return tables;
}

function declaredColumns(table: ts.InterfaceDeclaration): Map<string, DeclaredColumn> {
  const where = table.name.text;
  if (table.heritageClauses?.length) throw new Error(`${where} extends another interface; list its columns in it instead`);
  const columns = new Map<string, DeclaredColumn>();
  for (const member of table.members) {
    const { name, type } = property(member, where);
    const wrapper = wrapperName(type);
    if (wrapper !== null && !KNOWN_WRAPPERS.has(wrapper)) {
      throw new Error(`${where}.${name}: ${wrapper}<…> is not a Kysely column wrapper this check knows (test/unit/schema-declared.ts)`);
    }
    columns.set(name, { typeText: type.getText(), nullable: containsNull(selectType(type)), generated: wrapper === 'Generated' || wrapper === 'GeneratedAlways' });
  }
  return columns;
}

function property(member: ts.TypeElement, where: string): { name: string; type: ts.TypeNode } {
  if (!ts.isPropertySignature(member) || !member.type || !(ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))) {
    throw new Error(`${where} may only hold plain typed properties (found: ${member.getText()})`);
  }
  return { name: member.name.text, type: member.type };
}

/** What a select returns: Generated<T> is T, ColumnType<S, I, U> is S; a plain type is itself. */
function selectType(type: ts.TypeNode): ts.TypeNode {
  return (ts.isTypeReferenceNode(type) && type.typeArguments?.[0]) || type;
}

/** The generic a property's type is written with (Generated, ColumnType, …), or null for a plain type. */
function wrapperName(type: ts.TypeNode): string | null {
  return ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeArguments?.length ? type.typeName.text : null;
}

function containsNull(type: ts.TypeNode): boolean {
  if (ts.isLiteralTypeNode(type) && type.literal.kind === ts.SyntaxKind.NullKeyword) return true;
  if (ts.isUnionTypeNode(type)) return type.types.some(containsNull);
  if (ts.isParenthesizedTypeNode(type)) return containsNull(type.type);
  return false;
}
