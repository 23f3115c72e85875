import { compare, isPlainDecimal, normalizeDecimal, roundingTo, signOf } from '../../lib/decimal.js';

/**
 * The money facts the order status and every order view share (resolutions §6, third review), in decimal
 * arithmetic on the stored decimal strings, never floats:
 * - the order's refund total: its order-level refund (accounting.refund) plus every line's refund;
 * - the order's total: accounting.payment (what the buyer paid, the v2 fulfillment order's totalPayment)
 *   when the order carries it, else Σ quantity × unitPrice over the lines that have a price;
 * - a line's total: quantity × unitPrice.
 * A refund given on a return item (refundAmount) is what the channel says it refunds for that item; it is
 * shown on the return and is not a refund of the order: the seller records refunds through /refunds.
 */

// Amounts are up to ~30 digits (decimalInput keeps what the channel sent). These facts have always been
// computed to 200 significant digits, which rounds nothing shorter; kept so that no answer changes.
const math = roundingTo(200);

/** A stored decimal string to compute with; anything else (never written by the service) counts as absent. */
function parse(text: string | null | undefined): string | null {
  return typeof text === 'string' && isPlainDecimal(text) ? text : null;
}

/**
 * Order-level refund plus the lines' refunds, as a decimal string; null when no refund is recorded anywhere
 * (the v1 view then keeps accounting.refund null, as the channel sent it).
 */
export function orderRefundTotal(orderLevel: string | null | undefined, lineRefunds: readonly (string | null)[]): string | null {
  const parts = [orderLevel, ...lineRefunds].map(parse).filter((d): d is string => d !== null);
  if (parts.length === 0) return null;
  return math.sum(parts);
}

export interface PricedLine {
  quantity: number;
  unitPrice: string | null;
}

/** quantity × unitPrice; null without a price. */
export function lineTotal(line: PricedLine): string | null {
  const price = parse(line.unitPrice);
  return price === null ? null : math.multiply(price, line.quantity);
}

/** accounting.payment when given, else Σ quantity × unitPrice over priced lines; null when neither is known. */
export function orderTotal(payment: string | null | undefined, lines: readonly PricedLine[]): string | null {
  const paid = parse(payment);
  if (paid !== null) return normalizeDecimal(paid);
  const priced = lines.map(lineTotal).filter((t): t is string => t !== null);
  if (priced.length === 0) return null;
  return math.sum(priced);
}

/**
 * Refunds "add up to" a total: something was refunded and it is at least the total. Without a known total
 * (no payment, no prices) any refund counts as the whole: there is no amount it could fall short of.
 */
export function refundsCover(refunded: string | null, total: string | null): boolean {
  const r = parse(refunded);
  if (r === null || signOf(r) <= 0) return false;
  const t = parse(total);
  return t === null || compare(r, t) >= 0;
}

/** The stored accounting JSON's payment and order-level refund (decimal strings, or null). */
export function accountingFacts(accounting: string | null): { payment: string | null; orderRefund: string | null } {
  const parsed = accounting === null ? null : (JSON.parse(accounting) as Record<string, unknown>);
  const pick = (field: string) => (typeof parsed?.[field] === 'string' ? (parsed[field] as string) : null);
  return { payment: pick('payment'), orderRefund: pick('refund') };
}
