import { Decimal } from 'decimal.js';
import { normalizeDecimal } from './decimal.js';

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

// Amounts are up to ~30 digits (decimalInput keeps what the channel sent): no rounding, no exponent form.
const D = Decimal.clone({ precision: 200, toExpNeg: -200, toExpPos: 200 });
type Dec = InstanceType<typeof D>;

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A stored decimal string as a number to add; anything else (never written by the service) counts as absent. */
function parse(text: string | null | undefined): Dec | null {
  return typeof text === 'string' && DECIMAL.test(text) ? new D(text) : null;
}

function text(value: Dec): string {
  return normalizeDecimal(value.toFixed());
}

/**
 * Order-level refund plus the lines' refunds, as a decimal string; null when no refund is recorded anywhere
 * (the v1 view then keeps accounting.refund null, as the channel sent it).
 */
export function orderRefundTotal(orderLevel: string | null | undefined, lineRefunds: readonly (string | null)[]): string | null {
  const parts = [orderLevel, ...lineRefunds].map(parse).filter((d): d is Dec => d !== null);
  if (parts.length === 0) return null;
  return text(parts.reduce((sum, d) => sum.plus(d), new D(0)));
}

export interface PricedLine {
  quantity: number;
  unitPrice: string | null;
}

/** quantity × unitPrice; null without a price. */
export function lineTotal(line: PricedLine): string | null {
  const price = parse(line.unitPrice);
  return price === null ? null : text(price.times(line.quantity));
}

/** accounting.payment when given, else Σ quantity × unitPrice over priced lines; null when neither is known. */
export function orderTotal(payment: string | null | undefined, lines: readonly PricedLine[]): string | null {
  const paid = parse(payment);
  if (paid !== null) return text(paid);
  const priced = lines.map(lineTotal).filter((t): t is string => t !== null);
  if (priced.length === 0) return null;
  return text(priced.reduce((sum, t) => sum.plus(t), new D(0)));
}

/**
 * Refunds "add up to" a total: something was refunded and it is at least the total. Without a known total
 * (no payment, no prices) any refund counts as the whole: there is no amount it could fall short of.
 */
export function refundsCover(refunded: string | null, total: string | null): boolean {
  const r = parse(refunded);
  if (r === null || !r.isPositive() || r.isZero()) return false;
  const t = parse(total);
  return t === null || r.greaterThanOrEqualTo(t);
}

/** The stored accounting JSON's payment and order-level refund (decimal strings, or null). */
export function accountingFacts(accounting: string | null): { payment: string | null; orderRefund: string | null } {
  const parsed = accounting === null ? null : (JSON.parse(accounting) as Record<string, unknown>);
  const pick = (field: string) => (typeof parsed?.[field] === 'string' ? (parsed[field] as string) : null);
  return { payment: pick('payment'), orderRefund: pick('refund') };
}
