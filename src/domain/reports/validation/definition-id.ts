import type { Db } from '../../../db/tx.js';
import { invalidField } from '../../errors.js';
import { resolveImportTarget, TAKES_INTEGRATION, TAKES_TEMPLATE } from '../imports/import-target.js';
import { IMPORT_TYPES, type ImportType } from '../model.js';

/**
 * An import definition id (document 2.7, resolutions §3/§8): `<importType>[;<integrationId>[;<templateId>]]`,
 * the parts joined by `;` (the document) or `:` (public examples) — both, even mixed. Empty parts are
 * absent parts: `FullProductData;;7`, `FullProductData::7`, `Orders;12`, `Inventory`. The type name
 * compares case-insensitively.
 */
export interface ImportDefinition {
  importType: ImportType;
  integrationId: number | null;
  templateId: number | null;
}

const FIELD = 'importDefinitionId';

function idPart(raw: string, name: string): number | null {
  const text = raw.trim();
  if (text === '') return null;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < 1) {
    throw invalidField(FIELD, `the ${name} part must be a positive whole number, got "${text.slice(0, 40)}"`);
  }
  return Number(text);
}

export function parseDefinitionId(raw: string): ImportDefinition {
  const parts = raw.split(/[;:]/);
  if (parts.length > 3) {
    throw invalidField(FIELD, 'has more than three parts; the form is <importType>[;<integrationId>[;<templateId>]] (";" or ":" between parts)');
  }
  const typeText = parts[0]!.trim();
  const importType = IMPORT_TYPES.find((t) => t.toLowerCase() === typeText.toLowerCase());
  if (!importType) {
    throw invalidField(FIELD, `"${typeText.slice(0, 60)}" is not an import type; the types are ${IMPORT_TYPES.join(', ')}`);
  }
  const integrationId = idPart(parts[1] ?? '', 'integrationId');
  const templateId = idPart(parts[2] ?? '', 'templateId');
  if (integrationId !== null && !TAKES_INTEGRATION.includes(importType)) {
    throw invalidField(FIELD, `${importType} takes no integrationId (only ${TAKES_INTEGRATION.join(', ')} does: the custom store the orders go to)`);
  }
  if (templateId !== null && !TAKES_TEMPLATE.includes(importType)) {
    throw invalidField(FIELD, `${importType} takes no templateId (only ${TAKES_TEMPLATE.join(', ')} does: the saved column mapping)`);
  }
  if (TAKES_TEMPLATE.includes(importType) && templateId === null) {
    throw invalidField(FIELD, `${importType} needs a templateId: ${importType};;<templateId> (or ${importType}::<templateId>)`);
  }
  return { importType, integrationId, templateId };
}

/** The canonical form stored with the validation (`;` between parts, trailing empty parts dropped). */
export function definitionIdOf(def: ImportDefinition): string {
  return [def.importType, def.integrationId ?? '', def.templateId ?? ''].join(';').replace(/;+$/, '');
}

/**
 * Checks what the definition names against the account, as POST /v1/report does for an import: the custom
 * store (an Orders definition without one uses the account's default store) and the template exist in
 * this account (another account's: 404). Returns the definition with the store resolved.
 */
export async function resolveDefinition(db: Db, accountId: number, def: ImportDefinition): Promise<ImportDefinition> {
  return { importType: def.importType, ...(await resolveImportTarget(db, accountId, def.importType, def)) };
}
