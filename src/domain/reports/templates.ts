import type { Db } from '../../db/tx.js';
import { isUniqueViolation } from '../../db/tx.js';
import { alreadyExists, invalidField, notFound } from '../errors.js';
import type { ImportType } from './model.js';
import { normalizeFieldName as normalizeHeader, productFieldByName } from '../catalog/product-fields.js';
import { MAX_ID_LENGTH } from '../text-limits.js';

/**
 * Import templates (DESIGN.md operator API): a seller's saved column mapping {<file header>: <field or
 * attribute id>}, used by FullProductData imports and validations. Managed under /admin.
 */
export interface ImportTemplateView {
  templateId: number;
  name: string;
  importType: ImportType;
  columns: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** Column mappings stay small: a template is read whole for every report that uses it. */
export const MAX_TEMPLATE_COLUMNS = 1000;
/** Templates per account, so the unpaged admin list stays small. */
export const MAX_TEMPLATES = 1000;

type TemplateRow = { id: number; name: string; import_type: string; columns: string; created_at: string; updated_at: string };

export function toTemplateView(row: TemplateRow): ImportTemplateView {
  return {
    templateId: row.id,
    name: row.name,
    importType: row.import_type as ImportType,
    columns: JSON.parse(row.columns) as Record<string, string>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findImportTemplate(db: Db, accountId: number, templateId: number): Promise<ImportTemplateView | null> {
  if (!Number.isSafeInteger(templateId)) return null;
  const row = await db
    .selectFrom('import_templates')
    .select(['id', 'name', 'import_type', 'columns', 'created_at', 'updated_at'])
    .where('account_id', '=', accountId)
    .where('id', '=', templateId)
    .executeTakeFirst();
  return row ? toTemplateView(row) : null;
}

export async function getImportTemplate(db: Db, accountId: number, templateId: number): Promise<ImportTemplateView> {
  const template = await findImportTemplate(db, accountId, templateId);
  if (!template) throw notFound(`import template ${templateId} not found`);
  return template;
}

export async function listImportTemplates(db: Db, accountId: number): Promise<ImportTemplateView[]> {
  const rows = await db
    .selectFrom('import_templates')
    .select(['id', 'name', 'import_type', 'columns', 'created_at', 'updated_at'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  return rows.map(toTemplateView);
}


/** Import types a template can serve: the others read their fixed columns by name. */
export const TEMPLATE_IMPORT_TYPES: readonly ImportType[] = ['FullProductData'];

/**
 * A template maps each file header to a product field (by name, as in TemplatelessProduct files) or an
 * attribute id. It must map some header to sku, the key of every line; read-only fields cannot be written,
 * so a mapping to one is refused here rather than ignored in every import.
 */
function checkTemplate(importType: ImportType, columns: Record<string, string>): void {
  if (!TEMPLATE_IMPORT_TYPES.includes(importType)) {
    throw invalidField('importType', `templates serve ${TEMPLATE_IMPORT_TYPES.join(', ')} imports only, not ${importType} (whose files name their columns directly)`);
  }
  const entries = Object.entries(columns);
  if (entries.length === 0) throw invalidField('columns', 'must map at least one file header to a field');
  if (entries.length > MAX_TEMPLATE_COLUMNS) throw invalidField('columns', `maps at most ${MAX_TEMPLATE_COLUMNS} headers`);
  const seen = new Map<string, string>();
  let mapsSku = false;
  for (const [header, target] of entries) {
    const key = normalizeHeader(header);
    if (key === '') throw invalidField('columns', 'a file header is empty');
    if (header.length > MAX_ID_LENGTH) throw invalidField('columns', `the file header "${header.slice(0, 60)}…" is longer than ${MAX_ID_LENGTH} characters`);
    const earlier = seen.get(key);
    if (earlier !== undefined) throw invalidField('columns', `the headers "${earlier}" and "${header}" are the same header (names compare case-insensitively, spaces and _ equal)`);
    seen.set(key, header);
    const trimmed = target.trim();
    if (trimmed === '') throw invalidField(`columns.${header}`, 'names no field or attribute id');
    if ([...trimmed].length > MAX_ID_LENGTH) throw invalidField(`columns.${header}`, `is longer than ${MAX_ID_LENGTH} characters, too long for an attribute id`);
    const field = productFieldByName(trimmed);
    if (field?.readOnly) throw invalidField(`columns.${header}`, `${field.name} is read-only (set by the service); leave it out of the template`);
    if (field?.name === 'sku') mapsSku = true;
  }
  if (!mapsSku) throw invalidField('columns', 'must map a file header to sku (the key of every line)');
}

export async function createImportTemplate(
  db: Db,
  accountId: number,
  input: { name: string; importType: ImportType; columns: Record<string, string> },
  now: Date,
): Promise<ImportTemplateView> {
  checkTemplate(input.importType, input.columns);
  const count = await db.selectFrom('import_templates').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_TEMPLATES) throw invalidField('name', `an account has at most ${MAX_TEMPLATES} import templates`);
  const iso = now.toISOString();
  try {
    const row = await db
      .insertInto('import_templates')
      .values({ account_id: accountId, name: input.name, import_type: input.importType, columns: JSON.stringify(input.columns), created_at: iso, updated_at: iso })
      .returning(['id', 'name', 'import_type', 'columns', 'created_at', 'updated_at'])
      .executeTakeFirstOrThrow();
    return toTemplateView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyExists(`an import template named "${input.name}" already exists`);
    throw error;
  }
}

/** Replaces a template's name and columns (its importType stays; only FullProductData exists). */
export async function updateImportTemplate(
  db: Db,
  accountId: number,
  templateId: number,
  input: { name: string; importType?: ImportType | undefined; columns: Record<string, string> },
  now: Date,
): Promise<ImportTemplateView> {
  const current = await getImportTemplate(db, accountId, templateId);
  if (input.importType !== undefined && input.importType !== current.importType) {
    throw invalidField('importType', `a template keeps its importType (${current.importType}); create another template for ${input.importType}`);
  }
  checkTemplate(current.importType, input.columns);
  try {
    const row = await db
      .updateTable('import_templates')
      .set({ name: input.name, columns: JSON.stringify(input.columns), updated_at: now.toISOString() })
      .where('account_id', '=', accountId)
      .where('id', '=', templateId)
      .returning(['id', 'name', 'import_type', 'columns', 'created_at', 'updated_at'])
      .executeTakeFirstOrThrow();
    return toTemplateView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyExists(`an import template named "${input.name}" already exists`);
    throw error;
  }
}

/**
 * Deletes a template. Reports that name it keep their templateId; one still waiting to run then fails
 * with a message saying the template no longer exists.
 */
export async function deleteImportTemplate(db: Db, accountId: number, templateId: number): Promise<void> {
  const deleted = await db.deleteFrom('import_templates').where('account_id', '=', accountId).where('id', '=', templateId).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw notFound(`import template ${templateId} not found`);
}
