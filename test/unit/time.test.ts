import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRfc3339, parseTimestamp, toIso } from '../../src/lib/time.js';
import { timestampParam, optionalTimestampParam } from '../../src/http/params.js';
import { AppError } from '../../src/domain/errors.js';

const iso = (value: string) => parseTimestamp(value)?.toISOString() ?? null;

describe('parseTimestamp (resolutions §0: RFC 3339 with a zone)', () => {
  it('accepts Z and numeric offsets, normalising to UTC', () => {
    assert.equal(iso('2026-11-21T22:13:08Z'), '2026-11-21T22:13:08.000Z');
    assert.equal(iso('2026-11-21T22:13:08z'), '2026-11-21T22:13:08.000Z');
    assert.equal(iso('2026-11-21T23:13:08+01:00'), '2026-11-21T22:13:08.000Z');
    assert.equal(iso('2026-11-21T17:43:08-04:30'), '2026-11-21T22:13:08.000Z');
    assert.equal(iso('2026-11-21T22:13:08+00:00'), '2026-11-21T22:13:08.000Z');
    assert.equal(iso('2026-11-21t22:13:08Z'), '2026-11-21T22:13:08.000Z');
    assert.equal(iso('2026-11-21 22:13:08Z'), '2026-11-21T22:13:08.000Z');
  });

  it('accepts fractions of any length, keeping milliseconds', () => {
    assert.equal(iso('2026-11-21T22:13:08.1Z'), '2026-11-21T22:13:08.100Z');
    assert.equal(iso('2026-11-21T22:13:08.123Z'), '2026-11-21T22:13:08.123Z');
    assert.equal(iso('2026-11-21T22:13:08.123456789Z'), '2026-11-21T22:13:08.123Z');
    assert.equal(iso('2026-11-21T22:13:08.999999+02:00'), '2026-11-21T20:13:08.999Z');
  });

  it('refuses timestamps without a zone', () => {
    assert.equal(parseTimestamp('2026-11-21T22:13:08'), null);
    assert.equal(parseTimestamp('2026-11-21T22:13:08.123'), null);
    assert.equal(parseTimestamp('2026-11-21'), null);
  });

  it('refuses malformed text', () => {
    for (const bad of ['', 'yesterday', '1700000000', '2026-1-21T22:13:08Z', '2026-11-21T22:13Z', '2026-11-21T22:13:08.Z',
      '2026-11-21T22:13:08+0100', '2026-11-21T22:13:08+01', '2026-11-21T22:13:08 Z', '2026-11-21T22:13:08ZZ']) {
      assert.equal(parseTimestamp(bad), null, bad);
    }
  });

  it('refuses dates and times that do not exist instead of rolling them over', () => {
    for (const bad of [
      '2026-02-30T00:00:00Z',
      '2026-02-29T00:00:00Z', // 2026 is not a leap year
      '2026-02-30T00:00:00+01:00',
      '2026-04-31T12:00:00-05:00',
      '2026-13-01T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-01-00T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T23:60:00Z',
      '2026-01-01T23:59:60Z',
      '2026-01-01T00:00:00+24:00',
      '2026-01-01T00:00:00+01:60',
    ]) {
      assert.equal(parseTimestamp(bad), null, bad);
    }
    assert.equal(iso('2028-02-29T00:00:00Z'), '2028-02-29T00:00:00.000Z');
    assert.equal(iso('2026-12-31T23:59:59+14:00'), '2026-12-31T09:59:59.000Z');
  });

  it('isRfc3339 agrees with parseTimestamp', () => {
    assert.equal(isRfc3339('2026-11-21T22:13:08Z'), true);
    assert.equal(isRfc3339('2026-02-30T00:00:00Z'), false);
    assert.equal(isRfc3339('2026-11-21T22:13:08'), false);
  });

  it('toIso prints UTC with milliseconds', () => {
    assert.equal(toIso(new Date(Date.UTC(2026, 10, 21, 22, 13, 8, 5))), '2026-11-21T22:13:08.005Z');
  });
});

describe('timestampParam', () => {
  it('returns the instant', () => {
    assert.equal(timestampParam('since', '2026-11-21T22:13:08Z').toISOString(), '2026-11-21T22:13:08.000Z');
  });

  it('reads a "+" offset that a query string decoded to a space', () => {
    assert.equal(timestampParam('since', '2026-11-21T23:13:08 01:00').toISOString(), '2026-11-21T22:13:08.000Z');
    assert.equal(timestampParam('since', '2026-11-21T23:13:08.5 01:00').toISOString(), '2026-11-21T22:13:08.500Z');
  });

  it('is a 400 naming the field when the zone is missing', () => {
    assert.throws(
      () => timestampParam('lastUpdatedTs', '2026-11-21T22:13:08'),
      (e: unknown) =>
        e instanceof AppError &&
        e.status === 400 &&
        e.violations[0]?.field === 'lastUpdatedTs' &&
        /time zone/.test(e.message),
    );
  });

  it('optionalTimestampParam treats absent and empty as no filter', () => {
    assert.equal(optionalTimestampParam('since', undefined), null);
    assert.equal(optionalTimestampParam('since', ''), null);
    assert.equal(optionalTimestampParam('since', '2026-01-01T00:00:00Z')?.toISOString(), '2026-01-01T00:00:00.000Z');
  });
});
