import type { ImportType } from '../model.js';
import { inventoryImport } from './inventory.js';
import { kitsImport } from './kits.js';
import { ordersImport } from './orders.js';
import { fullProductDataImport, templatelessProductImport } from './products.js';
import type { ImportKind } from './types.js';

/** Every import type (resolutions §8) and the code that reads its files: imports and validations alike. */
const KINDS: Record<ImportType, ImportKind> = {
  TemplatelessProduct: templatelessProductImport as ImportKind,
  FullProductData: fullProductDataImport as ImportKind,
  Inventory: inventoryImport as ImportKind,
  Kits: kitsImport as ImportKind,
  Orders: ordersImport as ImportKind,
};

export function importKind(type: ImportType): ImportKind {
  return KINDS[type];
}
