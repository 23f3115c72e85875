import type { Db } from '../../../db/tx.js';
import { findCustomStoreOrDefault } from '../../accounts/custom-stores.js';
import { notFound } from '../../errors.js';
import type { ImportType } from '../model.js';
import { findImportTemplate } from '../templates.js';

/** Types that take an integration id (the custom store the orders go to). */
export const TAKES_INTEGRATION: readonly ImportType[] = ['Orders'];
/** Types that take a template id (the seller's saved column mapping). */
export const TAKES_TEMPLATE: readonly ImportType[] = ['FullProductData'];

/**
 * What an import (a report or a validation) names, checked against the account: the template must be one
 * of its own, and an Orders import goes to the named custom store or the account's default one. Another
 * account's template or store is a 404, never revealed. Answers the ids the import runs with.
 */
export async function resolveImportTarget(
  db: Db,
  accountId: number,
  importType: ImportType,
  named: { integrationId: number | null; templateId: number | null },
): Promise<{ integrationId: number | null; templateId: number | null }> {
  if (named.templateId !== null) {
    const template = await findImportTemplate(db, accountId, named.templateId);
    if (!template) throw notFound(`import template ${named.templateId} not found`);
  }
  const integrationId = TAKES_INTEGRATION.includes(importType)
    ? (await findCustomStoreOrDefault(db, accountId, named.integrationId)).integrationId
    : null;
  return { integrationId, templateId: named.templateId };
}
