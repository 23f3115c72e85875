import { Decimal } from 'decimal.js';
import type { Db, Tx } from '../../db/tx.js';
import { notFound } from '../errors.js';
import { normalizeDecimal } from '../orders/decimal.js';

/**
 * Landed cost (decimal.js, never floats): what a received unit cost the seller, vendor price plus its share of
 * the shipment's shipping cost.
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

// Divisions truncate at 80 significant digits and are then rounded to 4 decimals: truncation never crosses
// a 4-decimal boundary (nor a half of one), so both the round-down and the half-up results are exact.
const D = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_DOWN, toExpNeg: -100, toExpPos: 100 });
type Dec = InstanceType<typeof D>;

export const COST_DECIMALS = 4;

const floor4 = (value: Dec): Dec => value.toDecimalPlaces(COST_DECIMALS, Decimal.ROUND_DOWN);
const halfUp4 = (value: Dec): Dec => value.toDecimalPlaces(COST_DECIMALS, Decimal.ROUND_HALF_UP);

/** A decimal as the service stores it: plain notation, no redundant zeros ("3.3330" → "3.333"). */
export function decimalText(value: Dec): string {
  return normalizeDecimal(value.toFixed());
}

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
function splitByUnits(total: Dec, units: readonly number[]): Dec[] {
  const all = units.reduce((n, u) => n + u, 0);
  if (all === 0) return units.map(() => new D(0));
  let cumulative = 0;
  let given = new D(0);
  return units.map((u, index) => {
    cumulative += u;
    const upTo = index === units.length - 1 ? total : floor4(total.times(cumulative).div(all));
    const share = upTo.minus(given);
    given = upTo;
    return share;
  });
}

/** This receipt's shipping share per line (decimal strings, in the order of `lineUnits`). */
export function allocateShipping(input: ShippingAllocationInput): string[] {
  const shipping = new D(input.shippingCost ?? '0');
  const receiptUnits = input.lineUnits.reduce((n, u) => n + u, 0);
  if (input.shipmentUnits <= 0 || shipping.isZero()) return input.lineUnits.map(() => '0');
  const receivedAfter = input.receivedBefore + receiptUnits;
  const allocatedAfter = receivedAfter >= input.shipmentUnits ? shipping : floor4(shipping.times(receivedAfter).div(input.shipmentUnits));
  const before = input.allocatedBefore.reduce((sum, s) => sum.plus(s), new D(0));
  // Never negative: only a shipping cost lowered after earlier receipts could make it so.
  const share = D.max(allocatedAfter.minus(before), 0);
  return splitByUnits(share, input.lineUnits).map(decimalText);
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
export function addLandedCost(state: LandedCostState, add: LandedCostAddition): { units: number; total: string; landedCost: string | null } {
  if (add.unitItemCost === null || add.units <= 0) {
    return { units: state.units, total: state.total, landedCost: averageOf(state.units, new D(state.total)) };
  }
  const units = state.units + add.units;
  const total = new D(state.total).plus(new D(add.unitItemCost).times(add.units)).plus(add.shippingShare);
  return { units, total: decimalText(total), landedCost: averageOf(units, total) };
}

function averageOf(units: number, total: Dec): string | null {
  return units > 0 ? decimalText(halfUp4(total.div(units))) : null;
}

/** Bounded retries of the compare-and-swap below; each lost race means another receipt committed. */
const MAX_CAS_ATTEMPTS = 50;

/**
 * Adds received units to a product's landed cost with a compare-and-swap on (landed_cost_units,
 * landed_cost_total): parallel receipts of the same SKU on different shipments both count, the loser reads
 * the winner's counters and tries again. The total is a decimal string, so SQL cannot add it; hence CAS.
 */
export async function recordLandedCost(tx: Tx, accountId: number, productId: number, add: LandedCostAddition): Promise<void> {
  if (add.unitItemCost === null || add.units <= 0) return;
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
    const current = await tx
      .selectFrom('products')
      .select(['landed_cost_units', 'landed_cost_total'])
      .where('account_id', '=', accountId)
      .where('id', '=', productId)
      .executeTakeFirstOrThrow();
    const next = addLandedCost({ units: current.landed_cost_units, total: current.landed_cost_total }, add);
    const swapped = await tx
      .updateTable('products')
      .set({ landed_cost: next.landedCost, landed_cost_units: next.units, landed_cost_total: next.total })
      .where('account_id', '=', accountId)
      .where('id', '=', productId)
      .where('landed_cost_units', '=', current.landed_cost_units)
      .where('landed_cost_total', '=', current.landed_cost_total)
      .returning('id')
      .executeTakeFirst();
    if (swapped) return;
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
