/**
 * Channel inventory rules (resolutions §9): how much of the seller's own stock a storefront is told to list.
 * Pure arithmetic, no database: every reader of a variant's merchant quantity (v2 variant inventory, the
 * polls, drift, v1 listing inventory, submissions, the console's preview) computes it here, so they agree.
 *
 * Integers throughout. For one variant, with the SKU's override fields taking precedence field by field:
 * A = available units (never below 0) summed over the rule's warehouses; a fixed quantity, when set, is the
 * answer; else q = floor(A × percent / 100), 0 when q ≤ the safety quantity, then at most the cap.
 */

export interface ChannelRuleFields {
  /** The warehouses that feed the channel; null = every seller warehouse that is not channel-fulfilled. */
  warehouseIds: number[] | null;
  /** 1–100. */
  percent: number;
  /** At or under it the channel sees 0. */
  safetyQuantity: number;
  /** null = no cap. */
  maxQuantity: number | null;
  /** null = computed from stock; else listed as it is (made-to-order goods). */
  fixedQuantity: number | null;
}

/** A per-SKU override: a field left out (undefined) follows the storefront's rule; null is a value (no cap, not fixed, default warehouses). */
export type ChannelRuleOverride = Partial<ChannelRuleFields>;

export interface ChannelRules extends ChannelRuleFields {
  skuOverrides: ReadonlyMap<string, ChannelRuleOverride>;
}

export const DEFAULT_CHANNEL_RULE: Readonly<ChannelRuleFields> = Object.freeze({
  warehouseIds: null,
  percent: 100,
  safetyQuantity: 0,
  maxQuantity: null,
  fixedQuantity: null,
});

/** A rule with an override applied: each field the override sets replaces the rule's (null included). */
export function withOverride(rule: ChannelRuleFields, override: ChannelRuleOverride | undefined): ChannelRuleFields {
  if (!override) return rule;
  return {
    warehouseIds: override.warehouseIds !== undefined ? override.warehouseIds : rule.warehouseIds,
    percent: override.percent ?? rule.percent,
    safetyQuantity: override.safetyQuantity ?? rule.safetyQuantity,
    maxQuantity: override.maxQuantity !== undefined ? override.maxQuantity : rule.maxQuantity,
    fixedQuantity: override.fixedQuantity !== undefined ? override.fixedQuantity : rule.fixedQuantity,
  };
}

/** The rule one SKU follows: the storefront's fields, each replaced by the SKU's override when it sets it. */
export function ruleForSku(rules: ChannelRules, sku: string): ChannelRuleFields {
  const { warehouseIds, percent, safetyQuantity, maxQuantity, fixedQuantity } = rules;
  return withOverride({ warehouseIds, percent, safetyQuantity, maxQuantity, fixedQuantity }, rules.skuOverrides.get(sku));
}

/** One warehouse's stock of the SKU: on hand minus reserved (may be negative when oversold). */
export interface WarehouseStock {
  warehouseId: number;
  available: number;
}

/** Each step of the arithmetic, for the console's "why" (available → percent → safety → cap). */
export interface RuledQuantity {
  /** A: available units over the rule's warehouses. */
  available: number;
  /** floor(A × percent / 100); null with a fixed quantity. */
  afterPercent: number | null;
  /** 0 when afterPercent ≤ safetyQuantity, else afterPercent; null with a fixed quantity. */
  afterSafety: number | null;
  /** What the channel is told: the merchant-fulfillable quantity. */
  quantity: number;
  /** Why `quantity` is what it is, in the order the rules apply. */
  decidedBy: 'fixed' | 'safety' | 'cap' | 'percent';
  /** The quantity per warehouse of the rule holding the SKU, adding up to `quantity`, by warehouse id. */
  warehouses: { warehouseId: number; quantity: number }[];
}

/**
 * Fills warehouses in routing order (most available first, ties by lowest id, as orders are routed) up to
 * each one's available units; what a fixed quantity asks beyond the stock goes to the first of them.
 */
function breakdown(stock: readonly WarehouseStock[], quantity: number): { warehouseId: number; quantity: number }[] {
  const routing = [...stock].sort((a, b) => b.available - a.available || a.warehouseId - b.warehouseId);
  const allotted = new Map<number, number>();
  let left = quantity;
  for (const w of routing) {
    const take = Math.min(left, Math.max(0, w.available));
    allotted.set(w.warehouseId, take);
    left -= take;
  }
  if (left > 0 && routing.length > 0) allotted.set(routing[0]!.warehouseId, allotted.get(routing[0]!.warehouseId)! + left);
  return [...allotted].map(([warehouseId, q]) => ({ warehouseId, quantity: q })).sort((a, b) => a.warehouseId - b.warehouseId);
}

/**
 * The ruled quantity of one variant. `stock` holds the SKU's rows in the rule's warehouses only (the caller
 * resolves `warehouseIds`, null meaning the defaults); a warehouse without a row holds none of it. With a
 * fixed quantity and no row at all, `firstWarehouseId` (the first of the rule's warehouses) carries it.
 */
export function ruledQuantity(rule: ChannelRuleFields, stock: readonly WarehouseStock[], firstWarehouseId: number | null = null): RuledQuantity {
  const available = stock.reduce((sum, w) => sum + Math.max(0, w.available), 0);
  if (rule.fixedQuantity !== null) {
    const rows = stock.length === 0 && firstWarehouseId !== null && rule.fixedQuantity > 0 ? [{ warehouseId: firstWarehouseId, available: 0 }] : stock;
    return { available, afterPercent: null, afterSafety: null, quantity: rule.fixedQuantity, decidedBy: 'fixed', warehouses: breakdown(rows, rule.fixedQuantity) };
  }
  // Integer arithmetic: no float rounding at the boundary (e.g. 7 × 29 / 100).
  const afterPercent = Math.floor((available * rule.percent) / 100);
  const afterSafety = afterPercent <= rule.safetyQuantity ? 0 : afterPercent;
  const capped = rule.maxQuantity !== null && afterSafety > rule.maxQuantity;
  const quantity = capped ? rule.maxQuantity! : afterSafety;
  const decidedBy = capped ? 'cap' : afterSafety !== afterPercent ? 'safety' : 'percent';
  return { available, afterPercent, afterSafety, quantity, decidedBy, warehouses: breakdown(stock, quantity) };
}

/**
 * A rule applied to a SKU's stock rows in every warehouse: only the rule's warehouses (null: the defaults)
 * that are not channel-fulfilled count, and the first of them carries a fixed quantity no row holds. The one
 * selection the stock copy (variant-stock-sync.ts) and the console's preview both use.
 */
export function ruleOverStock(
  rule: ChannelRuleFields,
  rows: readonly (WarehouseStock & { channelFulfilled: boolean })[],
  defaultWarehouses: readonly number[],
): { feeding: readonly number[]; ruled: RuledQuantity } {
  const feeding = rule.warehouseIds ?? defaultWarehouses;
  const eligible = new Set(feeding);
  const stock = rows.filter((r) => !r.channelFulfilled && eligible.has(r.warehouseId)).map((r) => ({ warehouseId: r.warehouseId, available: r.available }));
  return { feeding, ruled: ruledQuantity(rule, stock, feeding.length > 0 ? Math.min(...feeding) : null) };
}
