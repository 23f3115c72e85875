import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chartDays } from '../../src/domain/orders/home-figures.js';
import { QUARTER_MS, quarterOf, scaledSales } from '../../src/domain/orders/order-day-figures.js';

describe('the home chart rollup: quarter hours and scaled sales', () => {
  it('puts an instant in its UTC quarter hour (epoch ms / 900,000, rounded down)', () => {
    assert.equal(quarterOf('1970-01-01T00:00:00.000Z'), 0);
    assert.equal(quarterOf('1970-01-01T00:14:59.999Z'), 0);
    assert.equal(quarterOf('1970-01-01T00:15:00.000Z'), 1);
    assert.equal(quarterOf('2026-11-22T18:15:00.000Z') * QUARTER_MS, Date.parse('2026-11-22T18:15:00.000Z'));
    assert.equal(quarterOf('2026-11-22T18:29:59.999Z'), quarterOf('2026-11-22T18:15:00.000Z'));
  });

  it('every charted day starts on a quarter hour in zones with whole-hour, :30 and :45 offsets and summer time', () => {
    const now = new Date('2026-11-23T09:00:00.000Z');
    for (const zone of ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Eucla', 'Pacific/Chatham', 'Australia/Lord_Howe', 'America/St_Johns']) {
      for (const at of [now, new Date('2026-04-05T12:00:00Z'), new Date('2026-03-30T12:00:00Z')]) {
        const { days, end } = chartDays(at, zone);
        for (const start of [...days.map((d) => d.start), end]) assert.equal(Date.parse(start) % QUARTER_MS, 0, `${zone} ${start}`);
      }
    }
  });

  it('scales totals to whole units of 1/10,000, rounding half away from zero as the databases do', () => {
    assert.equal(scaledSales('0'), '0');
    assert.equal(scaledSales('12.5'), '125000');
    assert.equal(scaledSales('0.00005'), '1');
    assert.equal(scaledSales('0.00004'), '0');
    assert.equal(scaledSales(19.99), '199900');
    assert.equal(scaledSales('123456789.1234'), '1234567891234');
  });
});
