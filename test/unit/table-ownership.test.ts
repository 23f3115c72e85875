import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import type { Database } from '../../src/db/schema.js';
import { REPO_ROOT } from '../helpers/repo-root.js';
import { declaredTables } from './schema-declared.js';

/**
 * One owner per table (issue 27, docs/architecture.md): only the owning area's files under src/domain write a
 * table (INSERT, UPDATE, DELETE); another area changes it through the owner's exported functions. Reads are
 * not checked here. Tables written outside src/domain (jobs, idempotency, the file store) have owners that
 * are no domain area, so no domain file may write them.
 *
 * The check reads the sources with the TypeScript parser (comments are not code, so they never count):
 * every call `.insertInto(…)`, `.updateTable(…)` and `.deleteFrom(…)` (in compiled statements' builders
 * too), and every string or template text holding `insert into <t>`, `update <t>` or `delete from <t>`
 * for a table <t> of the schema (raw SQL).
 */

type DomainArea =
  | 'accounts'
  | 'callbacks'
  | 'catalog'
  | 'fulfillment'
  | 'inbound'
  | 'inventory'
  | 'listings'
  | 'orders'
  | 'personal-data'
  | 'reports'
  | 'sandbox-partner'
  | 'users';

/** Writers outside src/domain: src/jobs, the idempotency plugin and effect journal, src/lib/file-store. */
type OtherOwner = 'jobs' | 'idempotency' | 'file-store';

/** The owner of every table; Record<keyof Database, …> makes the type checker refuse a missing or extra table. */
const TABLE_OWNERS: Record<keyof Database, DomainArea | OtherOwner> = {
  accounts: 'accounts',
  warehouses: 'accounts',
  custom_stores: 'accounts',
  apps: 'accounts',
  installations: 'accounts',
  warehouse_mappings: 'accounts',
  auth_codes: 'accounts',
  access_tokens: 'accounts',

  callback_deliveries: 'callbacks',
  app_event_subscriptions: 'callbacks',
  callback_attempts: 'callbacks',
  storefront_status_checks: 'callbacks',

  products: 'catalog',
  product_search_terms: 'catalog',
  product_attributes: 'catalog',
  kit_components: 'catalog',

  fulfillment_orders: 'fulfillment',
  fulfillment_cancellation_requests: 'fulfillment',
  fulfillment_cancellation_lines: 'fulfillment',
  fulfillment_alerts: 'fulfillment',

  vendors: 'inbound',
  inbound_shipments: 'inbound',
  inbound_shipment_lines: 'inbound',
  inbound_receipts: 'inbound',
  inbound_receipt_lines: 'inbound',

  inventory: 'inventory',
  inventory_reservations: 'inventory',
  storefront_inventory_rules: 'inventory',
  storefront_inventory_rule_overrides: 'inventory',

  storefront_settings: 'listings',
  listings: 'listings',
  listing_variants: 'listings',
  listing_attributes: 'listings',
  listing_variant_errors: 'listings',
  listing_submissions: 'listings',
  listing_submission_keys: 'listings',
  taxonomy_product_types: 'listings',
  taxonomy_attribute_specs: 'listings',
  storefront_valid_values: 'listings',
  ingestion_sessions: 'listings',
  ingestion_listings: 'listings',

  sales_orders: 'orders',
  sales_order_lines: 'orders',
  sales_order_search_terms: 'orders',
  sales_order_totals: 'orders',
  sales_order_quarter_hours: 'orders',
  sales_order_status_confirmations: 'orders',
  sales_order_packages: 'orders',
  sales_order_package_items: 'orders',
  sales_order_returns: 'orders',
  sales_order_return_items: 'orders',
  order_line_routes: 'orders',
  order_route_kit_components: 'orders',

  personal_data_erasures: 'personal-data',
  personal_data_audit: 'personal-data',

  import_templates: 'reports',
  reports: 'reports',
  report_line_errors: 'reports',
  import_validations: 'reports',
  import_validation_results: 'reports',

  sandbox_partner_apps: 'sandbox-partner',
  sandbox_partner_calls: 'sandbox-partner',

  console_users: 'users',
  console_sessions: 'users',
  console_login_failures: 'users',
  console_invitations: 'users',

  jobs: 'jobs',
  job_attempts: 'jobs',
  job_schedules: 'jobs',
  idempotency_keys: 'idempotency',
  idempotency_effects: 'idempotency',
  stored_files: 'file-store',
  stored_file_chunks: 'file-store',
};

/**
 * Writes still made by an area that does not own the table, each with the reason it stays for now. The test
 * fails when one of them no longer happens, so the list only shrinks.
 */
const PENDING: readonly { file: string; table: string; why: string }[] = [];

const DOMAIN_DIR = 'src/domain';
const SCHEMA_FILE = 'src/db/schema.ts';
const WRITE_METHODS = new Set(['insertInto', 'updateTable', 'deleteFrom']);
/** Raw SQL writes; the name is checked against the schema's tables, so prose such as "update the …" is not one. */
const RAW_WRITE = /\b(insert\s+into|update|delete\s+from)\s+"?([a-z_][a-z0-9_]*)"?/gi;

interface Write {
  line: number;
  /** The table as written: null when the call's argument is not a string literal (the check cannot tell). */
  table: string | null;
  how: string;
}

/** The writes of one source text (see the description above). */
function writesIn(text: string, fileName: string, tables: ReadonlySet<string>): Write[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const writes: Write[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && WRITE_METHODS.has(node.expression.name.text)) {
      const method = node.expression.name.text;
      const arg = node.arguments[0];
      const line = lineOf(node.expression.name.getStart(source));
      if (arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) {
        // 'table' or 'table as alias'
        writes.push({ line, table: arg.text.trim().split(/\s+/)[0] ?? '', how: method });
      } else {
        writes.push({ line, table: null, how: method });
      }
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      const raw = node.getText(source);
      const start = node.getStart(source);
      for (const m of raw.matchAll(RAW_WRITE)) {
        const table = m[2]!.toLowerCase();
        if (!tables.has(table)) continue;
        writes.push({ line: lineOf(start + m.index), table, how: `raw SQL "${m[0]}"` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return writes;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return sourceFiles(full);
      return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
    });
}

/** The area of a file: the first folder under src/domain (a file directly in src/domain has none). */
function areaOf(relative: string): string {
  const parts = path.relative(DOMAIN_DIR, relative).split(path.sep);
  return parts.length > 1 ? parts[0]! : '(none: a file directly in src/domain)';
}

interface Violation {
  file: string;
  line: number;
  table: string;
  area: string;
  owner: string;
  how: string;
}

function domainViolations(tables: ReadonlySet<string>): Violation[] {
  const owners: Record<string, string> = TABLE_OWNERS;
  const found: Violation[] = [];
  for (const full of sourceFiles(path.join(REPO_ROOT, DOMAIN_DIR))) {
    const file = path.relative(REPO_ROOT, full).split(path.sep).join('/');
    const area = areaOf(path.relative(REPO_ROOT, full));
    for (const w of writesIn(readFileSync(full, 'utf8'), file, tables)) {
      const table = w.table ?? '(not a string literal)';
      const owner = w.table === null ? '(unknown)' : (owners[w.table] ?? '(not in TABLE_OWNERS)');
      if (owner !== area) found.push({ file, line: w.line, table, area, owner, how: w.how });
    }
  }
  return found;
}

const isPending = (v: Violation) => PENDING.some((p) => p.file === v.file && p.table === v.table);

describe('one owner per table', () => {
  const schemaTables = new Set(declaredTables(path.join(REPO_ROOT, SCHEMA_FILE)).keys());
  // Parsing every domain file takes seconds: once for the two checks that use it.
  let scanned: Violation[] | undefined;
  const violationsFound = () => (scanned ??= domainViolations(schemaTables));

  it(`maps exactly the tables of ${SCHEMA_FILE}`, () => {
    const mapped = new Set(Object.keys(TABLE_OWNERS));
    const unmapped = [...schemaTables].filter((t) => !mapped.has(t)).sort();
    const unknown = [...mapped].filter((t) => !schemaTables.has(t)).sort();
    assert.deepEqual({ unmapped, unknown }, { unmapped: [], unknown: [] }, `add every table of ${SCHEMA_FILE} to TABLE_OWNERS, and only those`);
  });

  it('names existing areas as owners', () => {
    const other = new Set<string>(['jobs', 'idempotency', 'file-store']);
    const missing = [...new Set(Object.values(TABLE_OWNERS))].filter((o) => !other.has(o) && !existsSync(path.join(REPO_ROOT, DOMAIN_DIR, o))).sort();
    assert.deepEqual(missing, [], `owners without a folder under ${DOMAIN_DIR}`);
  });

  it('lets a domain file write only the tables of its own area', () => {
    const violations = violationsFound().filter((v) => !isPending(v));
    const lines = violations.map(
      (v) => `${v.file}:${v.line}: ${v.how} writes ${v.table} from area ${v.area}, but ${v.owner} owns it: call a function of ${v.owner} instead`,
    );
    assert.deepEqual(lines, []);
  });

  it('keeps no stale exception in PENDING', () => {
    const violations = violationsFound();
    const stale = PENDING.filter((p) => !violations.some((v) => v.file === p.file && v.table === p.table)).map((p) => `${p.file} ${p.table}`);
    assert.deepEqual(stale, [], 'these writes are gone: remove them from PENDING');
  });

  it('finds writes with aliases, in builders and raw SQL, and none in comments', () => {
    const text = [
      "const a = (db) => db.insertInto('products').values({});",
      "await tx.updateTable('products as p').set({});",
      '// await tx.deleteFrom(\'products\');',
      "/* db.updateTable('inventory') and update inventory set x = 1 */",
      'const b = compiledBySize((db, arg, n) =>',
      // The call's table on the line after it: the line reported is the call's.
      "  db.deleteFrom(\n    'inventory')",
      ');',
      'await sql`UPDATE inventory SET x = ${1}`.execute(db);',
      "const c = 'insert  into \"products\" (id) values (1)';",
      "const d = 'Update the product, then delete from it';",
      'await db.insertInto(name).values({});',
    ].join('\n');
    const found = writesIn(text, 'sample.ts', new Set(['products', 'inventory'])).map((w) => `${w.line} ${w.table} ${w.how}`);
    assert.deepEqual(found, [
      '1 products insertInto',
      '2 products updateTable',
      '6 inventory deleteFrom',
      '9 inventory raw SQL "UPDATE inventory"',
      '10 products raw SQL "insert  into "products""',
      '12 null insertInto',
    ]);
  });
});
