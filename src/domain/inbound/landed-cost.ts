import type { Db, Tx } from '../../db/tx.js';
import { swapProductLandedCost } from '../catalog/product-landed-cost.js';
import { add, divideToScale, max, multiply, signOf, subtract, sum } from '../../lib/decimal.js';
import { notFound } from '../errors.js';

/**
 * Landed cost (exact decimal arithmetic, src/lib/decimal.ts, never floats): what a received unit cost the
 * seller, vendor price plus its share of the shipment's shipping cost.
 *
 * Shipping is allocated to units by count over the WHOLE shipment, cumulatively: after a receipt the shipment
 * has allocated floor4(shipping_cost × unitsReceivedSoFar / unitsOfShipment), and this receipt's share is that
 * minus what earlier receipts carried (the sum of their inbound_receipt_lines.shipping_cost). Rounding down
 * means no receipt ever carries more than its exact share; the final receipt (every unit received) takes the
 * remainder, so the shares of a fully received shipment sum to shipping_cost exactly (10.00 over 3 units
 * received one by one: 3.3333, 3.3333, 3.3334). The share is split over the receipt's lines by units in the
 * same cumulative way, the last line taking the rounding remainder. A shipment without shipping_cost ships
 * for 0.
 *
 * Each product keeps the weighted average over every COSTED unit ever received: landed_cost_total +=
 * n × unit_item_cost + the line's shipping share, landed_cost_units += n, landed_cost = round-half-up to 4
 * decimals of total / units. Units received without a unit_item_cost (neither on the receipt nor on the
 * shipment line) are left out of the average entirely, shipping share included: counting them at 0 would
 * drag the average below any real price, and the seller can still see them on the receipt.
 */

export const COST_DECIMALS = 4;

export interface ShippingAllocationInput {
  /** The shipment's shipping cost (decimal string), null for none. */
  shippingCost: string | null;
  /** Units of every line of the shipment. */
  shipmentUnits: number;
  /** Units received by earlier receipts. */
  receivedBefore: number;
  /** Shipping shares earlier receipts carried (their receipt lines). */
  allocatedBefore: readonly string[];
  /** Units of each line of this receipt, in order. */
  lineUnits: readonly number[];
}

/** Splits `total` over parts by units, cumulatively rounded down; the last part takes the remainder. */
function splitByUnits(total: string, units: readonly number[]): string[] {
  const all = units.reduce((n, u) => n + u, 0);
  if (all === 0) return units.map(() => '0');
  let cumulative = 0;
  let given = '0';
  return units.map((u, index) => {
    cumulative += u;
    const upTo = index === units.length - 1 ? total : divideToScale(multiply(total, cumulative), all, COST_DECIMALS, 'down');
    const share = subtract(upTo, given);
    given = upTo;
    return share;
  });
}

/** This receipt's shipping share per line (decimal strings, in the order of `lineUnits`). */
export function allocateShipping(input: ShippingAllocationInput): string[] {
  const shipping = input.shippingCost ?? '0';
  const receiptUnits = input.lineUnits.reduce((n, u) => n + u, 0);
  if (input.shipmentUnits <= 0 || signOf(shipping) === 0) return input.lineUnits.map(() => '0');
  const receivedAfter = input.receivedBefore + receiptUnits;
  const allocatedAfter =
    receivedAfter >= input.shipmentUnits ? shipping : divideToScale(multiply(shipping, receivedAfter), input.shipmentUnits, COST_DECIMALS, 'down');
  const before = sum(input.allocatedBefore);
  // Never negative: only a shipping cost lowered after earlier receipts could make it so.
  const share = max(subtract(allocatedAfter, before), 0);
  return splitByUnits(share, input.lineUnits);
}

export interface LandedCostState {
  units: number;
  /** Decimal string. */
  total: string;
}

export interface LandedCostAddition {
  units: number;
  /** Unit cost from the vendor (decimal string); null leaves the units out of the average. */
  unitItemCost: string | null;
  /** The shipping share these units carry (decimal string). */
  shippingShare: string;
}

/** The product's landed cost after adding costed units: the new counters and the rounded average. */
export function addLandedCost(state: LandedCostState, addition: LandedCostAddition): { units: number; total: string; landedCost: string | null } {
  if (addition.unitItemCost === null || addition.units <= 0) {
    return { units: state.units, total: state.total, landedCost: averageOf(state.units, state.total) };
  }
  const units = state.units + addition.units;
  const total = add(add(state.total, multiply(addition.unitItemCost, addition.units)), addition.shippingShare);
  return { units, total, landedCost: averageOf(units, total) };
}

function averageOf(units: number, total: string): string | null {
  return units > 0 ? divideToScale(total, units, COST_DECIMALS, 'half-up') : null;
}

/** Bounded retries of the compare-and-swap below; each lost race means another receipt committed. */
const MAX_CAS_ATTEMPTS = 50;

/**
 * Adds received units to a product's landed cost with a compare-and-swap on (landed_cost_units,
 * landed_cost_total): parallel receipts of the same SKU on different shipments both count, the loser reads
 * the winner's counters and tries again. The total is a decimal string, so SQL cannot add it; hence CAS.
 */
export async function recordLandedCost(tx: Tx, accountId: number, productId: number, addition: LandedCostAddition): Promise<void> {
  if (addition.unitItemCost === null || addition.units <= 0) return;
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
    const current = await tx
      .selectFrom('products')
      .select(['landed_cost_units', 'landed_cost_total'])
      .where('account_id', '=', accountId)
      .where('id', '=', productId)
      .executeTakeFirstOrThrow();
    const next = addLandedCost({ units: current.landed_cost_units, total: current.landed_cost_total }, addition);
    if (await swapProductLandedCost(tx, accountId, productId, { units: current.landed_cost_units, total: current.landed_cost_total }, next)) return;
  }
  throw new Error(`landed cost of product ${productId} kept changing under ${MAX_CAS_ATTEMPTS} attempts`);
}

export interface LandedCostView {
  sku: string;
  landedCost: string | null;
  unitsReceived: number;
  totalCost: string;
}

/** The seller's view of a product's landed cost (operator API); another account's SKU is not found. */
export async function getLandedCost(db: Db, accountId: number, sku: string): Promise<LandedCostView> {
  const row = await db
    .selectFrom('products')
    .select(['sku', 'landed_cost', 'landed_cost_units', 'landed_cost_total'])
    .where('account_id', '=', accountId)
    .where('sku', '=', sku)
    .executeTakeFirst();
  if (!row) throw notFound(`SKU "${sku}" not found`);
  return { sku: row.sku, landedCost: row.landed_cost, unitsReceived: row.landed_cost_units, totalCost: row.landed_cost_total };
}
