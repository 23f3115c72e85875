import type { Db, Tx } from '../../../db/tx.js';
import { inSavepoint } from '../../../db/fast-paths.js';
import { findOrCreateProduct, findProductsBySkus } from '../../catalog/products.js';
import { setKitComponents } from '../../catalog/kits.js';
import { AppError } from '../../errors.js';
import { clip, lineError, parseWholeNumber, skuProblem } from './cells.js';
import { mapHeader } from './header-map.js';
import { addError, consecutiveGroups, GroupMemory, refuseGroup, type LineGroup } from './line-groups.js';
import type { ImportKind, LineError } from './types.js';

/**
 * Kits import (resolutions §8): `kit_sku`, `component_sku`, `quantity`. The consecutive rows of one kit
 * are its whole recipe and replace the kit's components through setKitComponents, so the rules are those
 * of PUT /admin/…/products/{sku}/kit: one level deep (a kit may not contain a kit, nor be a component of
 * one), never itself, no component twice, quantities 1..100000, at most 50 components. A kit is applied
 * whole or not at all: a half recipe would make orders route the wrong units.
 */
export const COLUMNS = ['kit_sku', 'component_sku', 'quantity'] as const;
type Column = (typeof COLUMNS)[number];
/** The limits of the admin kit route (src/http/admin/kits/kit-components.ts). */
const MAX_COMPONENTS = 50;
const MAX_COMPONENT_QUANTITY = 100_000;

interface Plan {
  index: Record<Column, number>;
  header: string[];
  memory: GroupMemory;
}

interface Row {
  kitSku: string;
  componentSku: string;
  quantity: number;
  /** Problems of this line alone; kept on the row so the line still belongs to its kit's group. */
  errors: LineError[];
}

export const kitsImport: ImportKind<Plan, Row> = {
  type: 'Kits',

  async prepare(_db, _ctx, header) {
    const { index, unknown, duplicates, actual } = mapHeader(header, COLUMNS, { kit: 'kit_sku', component: 'component_sku', component_quantity: 'quantity' });
    const missing = COLUMNS.filter((c) => index[c] === undefined);
    if (missing.length > 0) return { ok: false, error: `the header has no ${missing.join(' or ')} column; a Kits file needs kit_sku, component_sku and quantity` };
    if (duplicates.length > 0) return { ok: false, error: `the header names the same column twice: ${duplicates.join(', ')}` };
    const notes = unknown.map((h) => lineError(1, h, 'not a Kits column; ignored (columns: kit_sku, component_sku, quantity)'));
    return { ok: true, plan: { index: index as Record<Column, number>, header, memory: new GroupMemory() }, actualHeaders: actual, notes };
  },

  parseLine(plan, cells, line) {
    const cell = (c: Column) => (cells[plan.index[c]] ?? '').trim();
    const header = (c: Column) => plan.header[plan.index[c]]!;
    const kitSku = cell('kit_sku');
    const kitProblem = skuProblem(kitSku);
    // Without a kit SKU the line belongs to no kit: it is refused on its own.
    if (kitProblem) return { errors: [lineError(line, header('kit_sku'), `kit_sku ${kitProblem}`)] };
    const errors: LineError[] = [];
    const componentSku = cell('component_sku');
    const componentProblem = skuProblem(componentSku);
    if (componentProblem) errors.push(lineError(line, header('component_sku'), `component_sku ${componentProblem}`));
    else if (componentSku === kitSku) errors.push(lineError(line, header('component_sku'), `a kit cannot contain itself (${clip(kitSku)})`));
    const quantity = parseWholeNumber(cell('quantity'), 1, MAX_COMPONENT_QUANTITY);
    if ('error' in quantity) errors.push(lineError(line, header('quantity'), `quantity (units per kit) ${quantity.error}`));
    return { row: { kitSku, componentSku, quantity: 'value' in quantity ? quantity.value : 0, errors } };
  },

  groupKey: (row) => row.kitSku,
  refuseRow: (row, errors) => ({ ...row, errors: [...row.errors, ...errors] }),

  async processChunk(db, ctx, plan, lines, apply) {
    const header = (c: Column) => plan.header[plan.index[c]]!;
    const skus = [...new Set(lines.flatMap((l) => [l.row.kitSku, l.row.componentSku]).filter((s) => s !== ''))];
    const state = await loadKitState(db, ctx.accountId, skus);
    const errors: LineError[] = [];
    for (const group of consecutiveGroups(lines, (r) => r.kitSku)) {
      const first = group.lines[0]!.line;
      const firstOfKit = plan.memory.firstLineOf(group.key, first);
      if (firstOfKit !== first) {
        const message = `the rows of kit "${clip(group.key)}" must be consecutive: the kit starts at line ${firstOfKit}, and these later rows are refused`;
        errors.push(...group.lines.map((l) => lineError(l.line, header('kit_sku'), message)));
        continue;
      }
      const own = checkKit(plan, ctx.createNewProducts, ctx.insertOnly, state, group);
      if (own.size > 0) {
        errors.push(...refuseGroup(group, own, header('kit_sku'), (bad) => `kit "${clip(group.key)}" is left unchanged: line ${bad} has an error, and a kit's rows are applied together`));
        continue;
      }
      const components = group.lines.map((l) => ({ sku: l.row.componentSku, quantity: l.row.quantity }));
      if (apply) {
        const refusal = await applyKit(db, ctx.accountId, group.key, components, state, ctx.now);
        if (refusal) {
          errors.push(...group.lines.map((l) => lineError(l.line, header('kit_sku'), refusal)));
          continue;
        }
      }
      // Later kits of the chunk are checked against the catalog as this kit leaves it (also when validating).
      state.record(group.key, components.map((c) => c.sku));
    }
    return errors;
  },
};

/** Everything that would refuse the kit, per line; empty when the recipe applies. */
function checkKit(plan: Plan, createNewProducts: boolean, insertOnly: boolean, state: KitState, group: LineGroup<Row>): Map<number, LineError[]> {
  const header = (c: Column) => plan.header[plan.index[c]]!;
  const kit = group.key;
  const own = new Map<number, LineError[]>();
  for (const { row } of group.lines) for (const e of row.errors) addError(own, e);
  const kitWide = (message: string) => group.lines.forEach((l) => addError(own, lineError(l.line, header('kit_sku'), message)));
  if (group.lines.length > MAX_COMPONENTS) kitWide(`kit "${clip(kit)}" has ${group.lines.length} rows; a kit has at most ${MAX_COMPONENTS} components`);
  if (!state.exists(kit) && !createNewProducts) kitWide(`kit SKU "${clip(kit)}" does not exist; send createNewProducts true to create it`);
  if (insertOnly && state.componentsOf(kit).length > 0) kitWide(`kit "${clip(kit)}" already has components; insertOnly leaves it unchanged`);
  const container = state.kitsContaining(kit)[0];
  if (container !== undefined) kitWide(`"${clip(kit)}" is a component of kit "${clip(container)}"; kits cannot be nested`);
  const seen = new Map<string, number>();
  for (const { line, row } of group.lines) {
    if (row.errors.length > 0) continue;
    const at = (message: string) => addError(own, lineError(line, header('component_sku'), message));
    const component = row.componentSku;
    const earlier = seen.get(component);
    if (earlier !== undefined) at(`component "${clip(component)}" is listed twice for kit "${clip(kit)}" (also on line ${earlier})`);
    seen.set(component, line);
    if (!state.exists(component) && !createNewProducts) at(`component SKU "${clip(component)}" does not exist; send createNewProducts true to create it`);
    if (state.componentsOf(component).length > 0) at(`component "${clip(component)}" is a kit itself; kits cannot be nested`);
  }
  return own;
}

/** Creates the missing products and replaces the recipe; the reason when the catalog still refuses it. */
async function applyKit(db: Db, accountId: number, kit: string, components: { sku: string; quantity: number }[], state: KitState, now: Date): Promise<string | null> {
  try {
    await inSavepoint(
      db,
      async () => {
        for (const sku of [kit, ...components.map((c) => c.sku)]) if (!state.exists(sku)) await findOrCreateProduct(db, accountId, sku, {}, now);
        // processChunk runs inside the chunk's transaction when it applies (types.ts), so db is that Tx.
        await setKitComponents(db as Tx, accountId, kit, components, now);
      },
      () => true,
    );
    return null;
  } catch (error) {
    // checkKit mirrors setKitComponents' rules, so this is a backstop (the savepoint undid the kit's writes).
    if (error instanceof AppError) return error.message;
    throw error;
  }
}

/**
 * The part of the catalog the chunk's kits touch: which SKUs exist, the recipe of each SKU that is a kit
 * and the kits each SKU is a component of. `record` applies a recipe to it, so validation (which writes
 * nothing) sees a later kit of the chunk as the import would.
 */
interface KitState {
  exists(sku: string): boolean;
  componentsOf(sku: string): string[];
  kitsContaining(sku: string): string[];
  record(kit: string, components: string[]): void;
}

async function loadKitState(db: Db, accountId: number, skus: string[]): Promise<KitState> {
  const products = await findProductsBySkus(db, accountId, skus, true);
  const existing = new Set(products.map((p) => p.sku));
  const recipes = new Map<string, Set<string>>();
  const containers = new Map<string, Set<string>>();
  const link = (kit: string, component: string) => {
    recipes.set(kit, (recipes.get(kit) ?? new Set()).add(component));
    containers.set(component, (containers.get(component) ?? new Set()).add(kit));
  };
  const ids = products.map((p) => p.id);
  if (ids.length > 0) {
    const rows = await db
      .selectFrom('kit_components as k')
      .innerJoin('products as kp', 'kp.id', 'k.kit_product_id')
      .innerJoin('products as cp', 'cp.id', 'k.component_product_id')
      .select(['kp.sku as kitSku', 'cp.sku as componentSku'])
      .where('k.account_id', '=', accountId)
      .where((eb) => eb.or([eb('k.kit_product_id', 'in', ids), eb('k.component_product_id', 'in', ids)]))
      .execute();
    for (const r of rows) link(r.kitSku, r.componentSku);
  }
  return {
    exists: (sku) => existing.has(sku),
    componentsOf: (sku) => [...(recipes.get(sku) ?? [])],
    kitsContaining: (sku) => [...(containers.get(sku) ?? [])],
    record(kit, components) {
      existing.add(kit);
      for (const old of recipes.get(kit) ?? []) containers.get(old)?.delete(kit);
      recipes.delete(kit);
      for (const c of components) {
        existing.add(c);
        link(kit, c);
      }
    },
  };
}
