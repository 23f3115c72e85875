import { Decimal } from 'decimal.js';

/**
 * The one place money and quantities are computed (DESIGN "Money": decimal strings end to end, a decimal
 * library for arithmetic, never a float). Values go in and come out as decimal text; decimal.js does the
 * arithmetic and is imported nowhere else in src/. Results are plain notation without redundant zeros
 * ("7.5", "0", "-3"), the form the service stores and compares as text (normalizeDecimal).
 *
 * The top-level functions are exact: sums, differences and products are never rounded, and division is only
 * offered rounded to a number of decimals (divideToScale), computed from the exact quotient. roundingTo(n)
 * gives the same operations rounding every result to n significant digits, for the few totals that were
 * computed that way before this module (see twentyDigits).
 */

/** A decimal as callers hold it: decimal text, or a number read back from a numeric column (SQLite). */
export type DecimalValue = string | number;

/** How a result is cut to a number of decimals: toward zero, or to the nearest with halves away from zero. */
export type Rounding = 'down' | 'half-up';

// decimal.js's largest precision: sums, differences and products of finite decimals are finite, so nothing
// is ever rounded and nothing is computed to that length (only a division could be, and none is made here).
const Exact = Decimal.clone({ precision: 1e9, rounding: Decimal.ROUND_HALF_UP });
type Dec = InstanceType<typeof Exact>;

const ROUNDING_MODES: Record<Rounding, Decimal.Rounding> = { down: Decimal.ROUND_DOWN, 'half-up': Decimal.ROUND_HALF_UP };

/** Optional minus, digits, optional fraction: no exponent, sign-less fraction (".5") or trailing point ("5."). */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/** Whether text is a plain decimal ("12", "-0.50"), the only form the service stores or accepts as text. */
export function isPlainDecimal(text: string): boolean {
  return PLAIN_DECIMAL.test(text);
}

/** Drops redundant zeros ("007.50" → "7.5", "-0" → "0") so equal amounts compare equal as text. */
export function normalizeDecimal(text: string): string {
  const negative = text.startsWith('-');
  const [intPart = '0', frac = ''] = (negative ? text.slice(1) : text).split('.');
  const int = intPart.replace(/^0+(?=\d)/, '');
  const fraction = frac.replace(/0+$/, '');
  const body = fraction ? `${int}.${fraction}` : int;
  return negative && body !== '0' ? `-${body}` : body;
}

/** Digits after the decimal point as written ("1.250" → 3, "12" → 0). */
export function decimalPlaces(text: string): number {
  return text.split('.')[1]?.length ?? 0;
}

/** The v1 JSON number for a stored decimal string (document 2.10 carries money and measures as numbers). */
export function decimalOutput(text: string | null): number | null {
  return text === null ? null : Number(text);
}

/**
 * A money amount as v2 renders it (resolutions §7 "v2 encoding"): the stored decimal string with at least two
 * decimals, as the production definitions show it ("13.00", "0.00", "-5.50"); more only when the value has
 * more ("1.255"). Only the rendering pads: amounts are stored exactly as given, never rounded. Anything that
 * is not a plain decimal (nothing stored should be) is returned unchanged rather than guessed at.
 */
export function moneyAmountText(amount: string): string {
  const match = /^(-?\d+)(?:\.(\d*))?$/.exec(amount);
  if (!match) return amount;
  return `${match[1]}.${(match[2] ?? '').padEnd(2, '0')}`;
}

function text(value: Dec): string {
  // toFixed() never uses exponent notation; normalizing only turns a negative zero into "0".
  return normalizeDecimal(value.toFixed());
}

/** Sums, differences and products; what each context offers. */
export interface DecimalArithmetic {
  add(a: DecimalValue, b: DecimalValue): string;
  subtract(a: DecimalValue, b: DecimalValue): string;
  /** Σ values, "0" for none. */
  sum(values: Iterable<DecimalValue>): string;
  /** a × b: a unit price by a quantity, an amount by a scale. */
  multiply(a: DecimalValue, b: DecimalValue): string;
}

function arithmetic(Ctor: typeof Exact): DecimalArithmetic {
  return {
    add: (a, b) => text(new Ctor(a).plus(b)),
    subtract: (a, b) => text(new Ctor(a).minus(b)),
    sum: (values) => {
      let total = new Ctor(0);
      for (const v of values) total = total.plus(v);
      return text(total);
    },
    multiply: (a, b) => text(new Ctor(a).times(b)),
  };
}

const exact = arithmetic(Exact);

export const { add, subtract, sum, multiply } = exact;

const rounded = new Map<number, DecimalArithmetic>();

/**
 * The same operations rounding every result (each addition and product on the way, as decimal.js does) to
 * `digits` significant digits, halves away from zero: what a decimal.js context of that precision computes.
 */
export function roundingTo(digits: number): DecimalArithmetic {
  let math = rounded.get(digits);
  if (!math) {
    math = arithmetic(Decimal.clone({ precision: digits, rounding: Decimal.ROUND_HALF_UP }));
    rounded.set(digits, math);
  }
  return math;
}

/**
 * decimal.js's default context (20 significant digits). The console's order totals (its order list's Total and
 * sort, the home chart's sales) were computed in it before this module and still are, so that moving them here
 * changed no output: exact arithmetic would give other digits only past the 20th significant one.
 */
export const twentyDigits: DecimalArithmetic = roundingTo(20);

/** −a (exact). */
export function negate(a: DecimalValue): string {
  return text(new Exact(a).neg());
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function compare(a: DecimalValue, b: DecimalValue): -1 | 0 | 1 {
  // comparedTo answers NaN only for NaN, which no decimal here is.
  return new Exact(a).comparedTo(b) as -1 | 0 | 1;
}

/** -1, 0 or 1 as a is negative, zero or positive. */
export function signOf(a: DecimalValue): -1 | 0 | 1 {
  return compare(a, 0);
}

/** The larger of a and b (normalized). */
export function max(a: DecimalValue, b: DecimalValue): string {
  return text(Exact.max(a, b));
}

/** a rounded to `scale` decimals ("0.00005" half-up to 4 → "0.0001"). */
export function roundToScale(a: DecimalValue, scale: number, rounding: Rounding): string {
  return text(new Exact(a).toDecimalPlaces(scale, ROUNDING_MODES[rounding]));
}

/**
 * a ÷ b rounded to `scale` decimals, from the exact quotient (so never rounded twice): the integer quotient of
 * a × 10^scale by b, then one step away from zero when rounding half up and the remainder is at least half of b.
 */
export function divideToScale(a: DecimalValue, b: DecimalValue, scale: number, rounding: Rounding): string {
  const divisor = new Exact(b);
  if (divisor.isZero()) throw new RangeError('division by zero');
  const scaled = new Exact(a).times(`1e${scale}`);
  let quotient = scaled.divToInt(divisor);
  if (rounding === 'half-up') {
    const remainder = scaled.minus(quotient.times(divisor));
    if (remainder.abs().times(2).gte(divisor.abs())) quotient = quotient.plus(scaled.isNeg() === divisor.isNeg() ? 1 : -1);
  }
  return text(quotient.times(`1e-${scale}`));
}
