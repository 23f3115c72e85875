import type { DayFigures } from '../../../domain/orders/home-figures.js';
import { twentyDigits } from '../../../lib/decimal.js';
import { formatMoney, type DisplaySettings } from '../format.js';
import { axisCount, axisMoney, barChartGeometry, shortDay } from './home-chart.js';

/**
 * The home page's last 30 days: orders and sales per day as two bar charts drawn by the server (inline SVG:
 * no script, no file from anywhere, nothing but presentation attributes and the stylesheet's classes, as the
 * CSP allows), each with a title and a description for screen readers, and the figures as a table anyone
 * can open.
 */

type Measure = 'orders' | 'sales';

const ordersText = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'order' : 'orders'}`;

function BarChart({ id, measure, title, figures, settings }: { id: string; measure: Measure; title: string; figures: DayFigures[]; settings: DisplaySettings }) {
  const values = figures.map((f) => (measure === 'orders' ? f.orders : Number(f.sales)));
  const geometry = barChartGeometry(values, measure === 'orders');
  const { box, plot } = geometry;
  const valueText = (f: DayFigures) => (measure === 'orders' ? ordersText(f.orders) : formatMoney(f.sales, settings));
  const peak = figures.reduce<DayFigures | null>((best, f, i) => (values[i]! > 0 && (best === null || values[i]! > values[figures.indexOf(best)]!) ? f : best), null);
  const first = figures[0];
  const last = figures[figures.length - 1];
  const description =
    first && last
      ? `${title} from ${first.day} to ${last.day}. ` +
        (peak ? `Highest: ${valueText(peak)} on ${peak.day}. Each day's figures are in the table below.` : 'No orders on any of these days.')
      : 'No days to show.';
  return (
    <svg class="chart" viewBox={`0 0 ${box.width} ${box.height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} data-chart={measure}>
      <title id={`${id}-title`} safe>
        {title}
      </title>
      <desc id={`${id}-desc`} safe>
        {description}
      </desc>
      <g class="axis">
        {geometry.ticks.map((t) => (
          <>
            <line x1={String(plot.left)} x2={String(plot.right)} y1={String(t.y)} y2={String(t.y)} />
            <text x={String(plot.left - 4)} y={String(t.y + 3.5)} text-anchor="end" safe>
              {measure === 'orders' ? axisCount(t.value) : axisMoney(t.value, settings.currencyCode)}
            </text>
          </>
        ))}
      </g>
      <g class="bars">
        {geometry.bars
          .filter((b) => b.height > 0)
          .map((b) => (
            <rect x={String(b.x)} y={String(b.y)} width={String(b.width)} height={String(b.height)}>
              <title safe>{`${figures[b.index]!.day}: ${valueText(figures[b.index]!)}`}</title>
            </rect>
          ))}
      </g>
      <g class="days">
        {geometry.labels.map((l) => (
          <text x={String(l.x)} y={String(box.height - 6)} text-anchor={l.anchor} safe>
            {shortDay(figures[l.index]!.day)}
          </text>
        ))}
      </g>
    </svg>
  );
}

/** The two charts and the table of their figures; the totals above them. */
export function LastDays({ figures, settings }: { figures: DayFigures[]; settings: DisplaySettings }) {
  const orders = figures.reduce((n, f) => n + f.orders, 0);
  const sales = twentyDigits.sum(figures.map((f) => f.sales));
  const days = figures.length;
  return (
    <section aria-labelledby="last-days" class="last-days">
      <h2 id="last-days" safe>{`Last ${days} days`}</h2>
      <p class="totals" data-orders={String(orders)} data-sales={sales}>
        <span safe>{formatMoney(sales, settings)}</span> in sales from <span safe>{ordersText(orders)}</span>
        <span class="muted"> (orders cancelled in full left out)</span>
      </p>
      {orders === 0 ? (
        <p class="muted empty-chart" safe>
          {`No orders in the last ${days} days. Orders placed on your channels and stores show here by day.`}
        </p>
      ) : (
        <>
          <div class="charts">
            <figure>
              <figcaption>Sales per day</figcaption>
              <BarChart id="chart-sales" measure="sales" title="Sales per day" figures={figures} settings={settings} />
            </figure>
            <figure>
              <figcaption>Orders per day</figcaption>
              <BarChart id="chart-orders" measure="orders" title="Orders per day" figures={figures} settings={settings} />
            </figure>
          </div>
          <details class="day-figures">
            <summary>Figures by day</summary>
            <div class="table-wrap">
              <table>
                <caption class="skip">Orders and sales per day</caption>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col" class="num">
                      Orders
                    </th>
                    <th scope="col" class="num">
                      Sales
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {[...figures].reverse().map((f) => (
                    <tr data-day={f.day}>
                      <th scope="row" safe>
                        {f.day}
                      </th>
                      <td class="num" safe>
                        {String(f.orders)}
                      </td>
                      <td class="num" safe>
                        {formatMoney(f.sales, settings)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </section>
  );
}
