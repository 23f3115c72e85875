import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chartDays } from '../../src/domain/orders/home-figures.js';
import { axisCount, axisMoney, barChartGeometry, CHART_BOX, niceTicks, shortDay } from '../../src/http/console/seller/home-chart.js';

describe('home chart geometry', () => {
  const plotBottom = CHART_BOX.height - CHART_BOX.bottom;
  const plotTop = CHART_BOX.top;

  it('zero days: no bars, no date labels, one axis step at 0', () => {
    const g = barChartGeometry([], true);
    assert.deepEqual(g.bars, []);
    assert.deepEqual(g.labels, []);
    assert.deepEqual(g.ticks, [{ value: 0, y: plotBottom }]);
  });

  it('all zeros: every bar flat on the baseline, the axis only at 0', () => {
    const g = barChartGeometry(Array(30).fill(0), false);
    assert.equal(g.bars.length, 30);
    assert.ok(g.bars.every((b) => b.height === 0 && b.y === plotBottom));
    assert.deepEqual(g.ticks.map((t) => t.value), [0]);
  });

  it('one spike: its bar reaches the top of the axis, the others stay flat, bars stay inside the plot in order', () => {
    const values = Array(30).fill(0);
    values[12] = 40;
    const g = barChartGeometry(values, true);
    assert.deepEqual(g.ticks.map((t) => t.value), [0, 10, 20, 30, 40]);
    const spike = g.bars[12]!;
    assert.equal(spike.y, plotTop);
    assert.equal(spike.height, plotBottom - plotTop);
    assert.ok(g.bars.every((b, i) => i === 12 || b.height === 0));
    for (const [i, b] of g.bars.entries()) {
      assert.ok(b.x >= CHART_BOX.left && b.x + b.width <= CHART_BOX.width - CHART_BOX.right, `bar ${i} inside`);
      if (i > 0) assert.ok(b.x > g.bars[i - 1]!.x);
    }
    // Today (the last day) and every 7th day back get a date.
    assert.deepEqual(g.labels.map((l) => l.index), [1, 8, 15, 22, 29]);
  });

  it('a tiny day beside a large one stays visible (1 unit high)', () => {
    const g = barChartGeometry([1000, 0.01], false);
    assert.equal(g.bars[1]!.height, 1);
  });

  it('rounds the axis to steps of 1, 2, 2.5 or 5 × 10ⁿ, whole steps for counts', () => {
    assert.deepEqual(niceTicks(137, false), [0, 50, 100, 150]);
    assert.deepEqual(niceTicks(99, false), [0, 25, 50, 75, 100]);
    assert.deepEqual(niceTicks(0.3, false), [0, 0.1, 0.2, 0.3], 'no floating-point tails such as 0.30000000000000004');
    assert.deepEqual(niceTicks(0.07, false), [0, 0.02, 0.04, 0.06, 0.08]);
    assert.deepEqual(niceTicks(1520, false), [0, 500, 1000, 1500, 2000]);
    assert.deepEqual(niceTicks(1, true), [0, 1]);
    assert.deepEqual(niceTicks(3, true), [0, 1, 2, 3]);
    assert.deepEqual(niceTicks(7, true), [0, 2, 4, 6, 8]);
    assert.deepEqual(niceTicks(9, true), [0, 5, 10], 'no 2.5 for counts');
    assert.deepEqual(niceTicks(0, true), [0]);
    assert.deepEqual(niceTicks(Number.NaN, false), [0]);
  });

  it('labels the axis short, in the account currency', () => {
    assert.equal(axisMoney(0, 'USD'), '$0');
    assert.equal(axisMoney(250, 'USD'), '$250');
    assert.equal(axisMoney(1500, 'USD'), '$1.5K');
    assert.equal(axisMoney(2_500_000, 'EUR'), '€2.5M');
    assert.equal(axisMoney(0.25, 'EUR'), '€0.25');
    assert.equal(axisMoney(1200, 'JPY'), '¥1.2K');
    assert.equal(axisCount(1500), '1.5K');
    assert.equal(axisCount(8), '8');
    assert.equal(shortDay('2026-11-03'), 'Nov 3');
  });
});

describe('home chart days in the seller time zone', () => {
  it('30 days ending today in the zone, each starting at its local midnight across a summer-time change', () => {
    const { days, end } = chartDays(new Date('2026-11-23T09:00:00Z'), 'America/New_York');
    assert.equal(days.length, 30);
    assert.deepEqual(days[0], { day: '2026-10-25', start: '2026-10-25T04:00:00.000Z' }, 'EDT, UTC-4');
    assert.deepEqual(days[29], { day: '2026-11-23', start: '2026-11-23T05:00:00.000Z' }, 'EST, UTC-5');
    assert.equal(end, '2026-11-24T05:00:00.000Z');
    assert.deepEqual(days[8], { day: '2026-11-02', start: '2026-11-02T05:00:00.000Z' }, 'the day after the change');
    assert.deepEqual(days[7], { day: '2026-11-01', start: '2026-11-01T04:00:00.000Z' }, 'the day of the change (25 hours long)');
  });

  it('a half-hour zone, a zone ahead of UTC where "today" is already tomorrow, and an unknown zone (UTC)', () => {
    const kolkata = chartDays(new Date('2026-11-23T20:00:00Z'), 'Asia/Kolkata');
    assert.deepEqual(kolkata.days[29], { day: '2026-11-24', start: '2026-11-23T18:30:00.000Z' });
    const unknown = chartDays(new Date('2026-11-23T20:00:00Z'), 'Mars/Olympus_Mons', 3);
    assert.deepEqual(unknown.days, [
      { day: '2026-11-21', start: '2026-11-21T00:00:00.000Z' },
      { day: '2026-11-22', start: '2026-11-22T00:00:00.000Z' },
      { day: '2026-11-23', start: '2026-11-23T00:00:00.000Z' },
    ]);
  });

  it('a day that starts after a gap at midnight starts at the first instant in it', () => {
    // America/Havana moves clocks from 00:00 to 01:00 on 2026-03-08.
    const { days } = chartDays(new Date('2026-03-08T12:00:00Z'), 'America/Havana', 2);
    assert.deepEqual(days[1], { day: '2026-03-08', start: '2026-03-08T05:00:00.000Z' });
  });
});
