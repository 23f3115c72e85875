/**
 * The geometry of the home page's bar charts (orders and sales per day), apart from the markup so it can be
 * tested alone: bars, a value axis with round steps, and which days get a date label. Numbers here only place
 * shapes; the figures people read are formatted from the exact values (decimal strings) by the page.
 */

export interface ChartBox {
  width: number;
  height: number;
  /** Room left of the plot for the axis labels, and below it for the dates. */
  left: number;
  bottom: number;
  top: number;
  right: number;
}

export const CHART_BOX: ChartBox = { width: 360, height: 170, left: 44, bottom: 22, top: 8, right: 6 };

export interface Bar {
  index: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ChartGeometry {
  box: ChartBox;
  /** The plot's edges. */
  plot: { left: number; right: number; top: number; bottom: number };
  bars: Bar[];
  /** Axis steps from 0 up to the top of the axis, each with its height. */
  ticks: { value: number; y: number }[];
  /**
   * The days that get a date under them (today, then every 7 days back): centred on the bar, but today's ends
   * at the right edge so it is never cut off.
   */
  labels: { index: number; x: number; anchor: 'middle' | 'end' }[];
}

const round2 = (n: number) => Math.round(n * 100) / 100;
// Tick values as written (0.1 × 3 is 0.30000000000000004 in floating point).
const clean = (n: number) => Number(n.toPrecision(12));

/**
 * Round axis steps for values up to `max`: 0 and at most `most` steps of 1, 2, 2.5 or 5 × 10ⁿ (whole numbers
 * only when `whole`, for counts), the last at or above `max`. All zeros (or nothing): [0].
 */
export function niceTicks(max: number, whole: boolean, most = 4): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0];
  const raw = max / most;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const multiples = whole && magnitude < 10 ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10];
  let step = multiples.map((k) => k * magnitude).find((s) => s >= raw * (1 - 1e-9))!;
  if (whole) step = Math.max(1, Math.round(step));
  const steps = Math.ceil(clean(max / step));
  return Array.from({ length: steps + 1 }, (_, i) => clean(i * step));
}

/** Bars for `values` (one per day, oldest first) in `box`, scaled to the top of the axis. */
export function barChartGeometry(values: readonly number[], whole: boolean, box: ChartBox = CHART_BOX): ChartGeometry {
  const plot = { left: box.left, right: box.width - box.right, top: box.top, bottom: box.height - box.bottom };
  const ticks = niceTicks(Math.max(0, ...values), whole);
  const top = ticks[ticks.length - 1]! || 1;
  const plotHeight = plot.bottom - plot.top;
  const slot = values.length === 0 ? 0 : (plot.right - plot.left) / values.length;
  const barWidth = slot * 0.72;
  const bars = values.map((value, index) => {
    // A day with any figure stays visible (1 unit) however small it is beside the highest.
    const height = value > 0 ? Math.max(1, (value / top) * plotHeight) : 0;
    return { index, x: round2(plot.left + index * slot + (slot - barWidth) / 2), y: round2(plot.bottom - height), width: round2(barWidth), height: round2(height) };
  });
  const labels: ChartGeometry['labels'] = [];
  for (let index = values.length - 1; index >= 0; index -= 7) {
    const last = index === values.length - 1;
    labels.unshift({ index, x: last ? box.width - 1 : round2(plot.left + (index + 0.5) * slot), anchor: last ? 'end' : 'middle' });
  }
  return { box, plot, bars, ticks: ticks.map((value) => ({ value, y: round2(plot.bottom - (value / top) * plotHeight) })), labels };
}

const compactMoney = new Map<string, Intl.NumberFormat>();

/** An axis step of money, short: "$0", "$250", "$1.5K", "€2M" (the exact figures are in the table). */
export function axisMoney(value: number, currencyCode: string): string {
  let format = compactMoney.get(currencyCode);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currencyCode, notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 2 });
    } catch {
      format = new Intl.NumberFormat('en-US', { notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 2 });
    }
    if (compactMoney.size < 500) compactMoney.set(currencyCode, format);
  }
  return format.format(value);
}

/** An axis step of a count: "0", "5", "1.5K". */
export function axisCount(value: number): string {
  return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day (YYYY-MM-DD) as the chart labels it: "Nov 23". */
export function shortDay(day: string): string {
  const [, m, d] = day.split('-').map(Number) as [number, number, number];
  return `${MONTHS[m - 1] ?? ''} ${d}`;
}
