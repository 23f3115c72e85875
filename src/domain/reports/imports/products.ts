import { normalizeFieldName, productFieldByName } from '../../catalog/product-fields.js';
import { findImportTemplate } from '../templates.js';
import { clip } from './cells.js';
import { applyProductChunk } from './product-apply.js';
import {
  READ_ONLY_NOTE,
  attributeTarget,
  parseProductLine,
  planProductColumns,
  type HeaderReading,
  type ProductPlan,
  type ProductRow,
} from './product-plan.js';
import type { ImportKind } from './types.js';

/**
 * The two product imports (resolutions §8). TemplatelessProduct reads headers by name: `sku`, the product
 * fields (product-fields.ts, with their aliases), any other header an attribute id. FullProductData reads
 * them through the seller's saved template {<file header>: <field or attribute id>}. Validation, options
 * and writes are the same code (product-plan.ts, product-apply.ts).
 */

function readByName(header: string): HeaderReading {
  const field = productFieldByName(header);
  if (!field) return attributeTarget(header, 'the header');
  if (field.readOnly) return { ignored: READ_ONLY_NOTE(field.name) };
  return { target: { kind: 'field', field } };
}

export const templatelessProductImport: ImportKind<ProductPlan, ProductRow> = {
  type: 'TemplatelessProduct',
  async prepare(_db, _ctx, header) {
    return planProductColumns(header, readByName, 'the header has no sku column; a TemplatelessProduct file needs one (the key of each line)');
  },
  parseLine: parseProductLine,
  processChunk: applyProductChunk,
};

export const fullProductDataImport: ImportKind<ProductPlan, ProductRow> = {
  type: 'FullProductData',
  async prepare(db, ctx, header) {
    if (ctx.templateId === null) return { ok: false, error: 'a FullProductData import needs templateId (the saved column mapping)' };
    const template = await findImportTemplate(db, ctx.accountId, ctx.templateId);
    // The template may have been deleted after the report was created.
    if (!template) return { ok: false, error: `import template ${ctx.templateId} no longer exists` };
    if (template.importType !== 'FullProductData') return { ok: false, error: `import template ${template.templateId} is for ${template.importType} imports, not FullProductData` };
    const mapping = new Map(Object.entries(template.columns).map(([h, target]) => [normalizeFieldName(h), target]));
    const read = (h: string): HeaderReading => {
      const target = mapping.get(normalizeFieldName(h));
      if (target === undefined) return { ignored: `not in template "${clip(template.name)}"; the column is ignored` };
      const field = productFieldByName(target);
      if (!field) return attributeTarget(target, `template "${clip(template.name)}" maps "${clip(h)}" to`);
      if (field.readOnly) return { ignored: READ_ONLY_NOTE(field.name) };
      return { target: { kind: 'field', field } };
    };
    const skuHeaders = Object.entries(template.columns).filter(([, target]) => productFieldByName(target)?.name === 'sku').map(([h]) => `"${clip(h)}"`);
    return planProductColumns(header, read, `the header has none of the columns template "${clip(template.name)}" maps to sku (${skuHeaders.join(', ')}); a FullProductData file needs one`);
  },
  parseLine: parseProductLine,
  processChunk: applyProductChunk,
};
