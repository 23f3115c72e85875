import type { ImportType } from '../model.js';
import { inventoryImport } from './inventory.js';
import { fullProductDataImport, templatelessProductImport } from './products.js';
import type { ImportKind } from './types.js';

/** Every import type (resolutions §8) and the code that reads its files. */
const KINDS: Partial<Record<ImportType, ImportKind>> = {
  Inventory: inventoryImport as ImportKind,
  TemplatelessProduct: templatelessProductImport as ImportKind,
  FullProductData: fullProductDataImport as ImportKind,
};

export function importKind(type: ImportType): ImportKind {
  const kind = KINDS[type];
  if (!kind) throw new Error(`import type ${type} has no reader`);
  return kind;
}
