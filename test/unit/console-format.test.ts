import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatMoney, formatTs } from '../../src/http/console/format.js';
import { currencyCodeProblem, retentionDaysProblem, settingsProblems, timeZoneProblem } from '../../src/domain/accounts/account-settings.js';

/** The console's formatters (resolutions §10): money in the account's currency, dates in its time zone. */

describe('formatTs', () => {
  it('shows UTC when no settings are given (the operator pages) and for a UTC account', () => {
    assert.equal(formatTs('2026-11-23T09:05:00.000Z'), '2026-11-23 09:05 UTC');
    assert.equal(formatTs('2026-11-23T09:05:00.000Z', { timeZone: 'UTC' }), '2026-11-23 09:05 UTC');
    assert.equal(formatTs('2026-11-23T09:05:00.000Z', null), '2026-11-23 09:05 UTC');
  });

  it('reads a timestamp with an offset as the instant it is', () => {
    assert.equal(formatTs('2026-11-23T10:05:00+01:00'), '2026-11-23 09:05 UTC');
  });

  it('shows the time in the zone with its abbreviation, following summer time', () => {
    assert.equal(formatTs('2026-11-23T09:05:00.000Z', { timeZone: 'Europe/Berlin' }), '2026-11-23 10:05 CET');
    assert.equal(formatTs('2026-07-23T09:05:00.000Z', { timeZone: 'Europe/Berlin' }), '2026-07-23 11:05 CEST');
    assert.equal(formatTs('2026-11-23T09:05:00.000Z', { timeZone: 'America/New_York' }), '2026-11-23 04:05 EST');
    assert.equal(formatTs('2026-07-23T09:05:00.000Z', { timeZone: 'America/Los_Angeles' }), '2026-07-23 02:05 PDT');
    assert.equal(formatTs('2026-07-23T09:05:00.000Z', { timeZone: 'Europe/London' }), '2026-07-23 10:05 BST');
    assert.equal(formatTs('2026-11-23T09:05:00.000Z', { timeZone: 'Australia/Sydney' }), '2026-11-23 20:05 AEDT');
  });

  it('changes the date across midnight and uses 00–23 hours', () => {
    assert.equal(formatTs('2026-11-23T23:30:00.000Z', { timeZone: 'Asia/Tokyo' }), '2026-11-24 08:30 GMT+9');
    assert.equal(formatTs('2026-11-23T02:00:00.000Z', { timeZone: 'America/New_York' }), '2026-11-22 21:00 EST');
    assert.equal(formatTs('2026-11-23T05:00:00.000Z', { timeZone: 'America/New_York' }), '2026-11-23 00:00 EST');
  });

  it('shows an offset where English has no abbreviation, and takes aliases', () => {
    assert.equal(formatTs('2026-11-23T09:05:00.000Z', { timeZone: 'Asia/Kolkata' }), '2026-11-23 14:35 IST');
    assert.equal(formatTs('2026-11-23T09:05:00.000Z', { timeZone: 'America/Sao_Paulo' }), '2026-11-23 06:05 GMT-3');
  });

  it('shows a dash for no value, the text itself for something that is not a timestamp', () => {
    assert.equal(formatTs(null), '–');
    assert.equal(formatTs(undefined, { timeZone: 'Europe/Berlin' }), '–');
    assert.equal(formatTs(''), '–');
    assert.equal(formatTs('not a date', { timeZone: 'Europe/Berlin' }), 'not a date');
  });

  it('falls back to UTC for a zone the runtime does not know', () => {
    assert.equal(formatTs('2026-11-23T09:05:00.000Z', { timeZone: 'Mars/Olympus_Mons' }), '2026-11-23 09:05 UTC');
  });
});

describe('formatMoney', () => {
  it('writes the amount in the currency with its symbol', () => {
    assert.equal(formatMoney('37.5', { currencyCode: 'USD' }), '$37.50');
    assert.equal(formatMoney('1250', { currencyCode: 'EUR' }), '€1,250.00');
    assert.equal(formatMoney('99.99', { currencyCode: 'GBP' }), '£99.99');
    assert.equal(formatMoney('1200', { currencyCode: 'JPY' }), '¥1,200');
    assert.equal(formatMoney('10', { currencyCode: 'CAD' }), 'CA$10.00');
    assert.equal(formatMoney(7, { currencyCode: 'USD' }), '$7.00');
  });

  it('keeps every stored digit, never going through a float', () => {
    assert.equal(formatMoney('12.345', { currencyCode: 'USD' }), '$12.345');
    assert.equal(formatMoney('37.5', { currencyCode: 'JPY' }), '¥37.5');
    assert.equal(formatMoney('12345678901234567.89', { currencyCode: 'USD' }), '$12,345,678,901,234,567.89');
    assert.equal(formatMoney('0.10', { currencyCode: 'USD' }), '$0.10');
    assert.equal(formatMoney('-5.25', { currencyCode: 'EUR' }), '-€5.25');
  });

  it('shows a dash for no amount, the text itself for something that is not an amount', () => {
    assert.equal(formatMoney(null, { currencyCode: 'USD' }), '–');
    assert.equal(formatMoney(undefined, { currencyCode: 'USD' }), '–');
    assert.equal(formatMoney('', { currencyCode: 'USD' }), '–');
    assert.equal(formatMoney('abc', { currencyCode: 'USD' }), 'abc');
    assert.equal(formatMoney('1e5', { currencyCode: 'USD' }), '1e5');
  });

  it('defaults to USD without settings, and writes the code for a currency the runtime cannot format', () => {
    assert.equal(formatMoney('3', undefined), '$3.00');
    assert.equal(formatMoney('3', { currencyCode: 'not-a-code' }), '3 not-a-code');
  });
});

describe('account settings checks', () => {
  it('currency codes: ISO 4217 in capitals', () => {
    for (const ok of ['USD', 'EUR', 'GBP', 'JPY', 'CHF']) assert.equal(currencyCodeProblem(ok), null, ok);
    for (const bad of ['usd', 'ABC', 'EURO', '', null, 5]) assert.match(String(currencyCodeProblem(bad)), /ISO 4217/, String(bad));
  });

  it('time zones: listed names, UTC, and other names the runtime knows, spelled as the database does', () => {
    for (const ok of ['UTC', 'Europe/Berlin', 'America/New_York', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata', 'Etc/GMT+5', 'Etc/UTC']) {
      assert.equal(timeZoneProblem(ok), null, ok);
    }
    for (const bad of ['europe/berlin', 'utc', 'Mars/Olympus_Mons', '+01:00', '', 'Europe/Berlin ', null]) {
      assert.match(String(timeZoneProblem(bad)), /IANA time zone/, String(bad));
    }
  });

  it('retention days: 1 to 3650 whole days, or null', () => {
    for (const ok of [1, 30, 3650, null]) assert.equal(retentionDaysProblem(ok), null, String(ok));
    for (const bad of [0, 3651, -1, 1.5, '30', Number.NaN]) assert.match(String(retentionDaysProblem(bad)), /1 to 3650/, String(bad));
  });

  it('names every bad field, and only those given', () => {
    assert.deepEqual(settingsProblems({}), []);
    assert.deepEqual(
      settingsProblems({ currencyCode: 'x', timeZone: 'UTC', personalDataRetentionDays: 0 }).map((p) => p.field),
      ['currencyCode', 'personalDataRetentionDays'],
    );
  });
});
