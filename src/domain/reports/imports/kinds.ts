import type { ImportType } from '../model.js';
import { inventoryImport } from './inventory.js';
import { kitsImport } from './kits.js';
import { ordersImport } from './orders.js';
import type { ImportKind } from './types.js';

/** Every import type (resolutions §8) and the code that reads its files. */
const KINDS: Partial<Record<ImportType, ImportKind>> = {
  Inventory: inventoryImport as ImportKind,
  Kits: kitsImport as ImportKind,
  Orders: ordersImport as ImportKind,
};

export function importKind(type: ImportType): ImportKind {
  const kind = KINDS[type];
  if (!kind) throw new Error(`import type ${type} has no reader`);
  return kind;
}
