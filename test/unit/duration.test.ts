import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDuration } from '../../src/lib/duration.js';

describe('parseDuration (Go and proto forms, resolutions §0)', () => {
  it('reads Go durations', () => {
    assert.equal(parseDuration('15m'), 15 * 60_000);
    assert.equal(parseDuration('24h'), 24 * 3_600_000);
    assert.equal(parseDuration('90s'), 90_000);
    assert.equal(parseDuration('1h30m'), 90 * 60_000);
    assert.equal(parseDuration('1h30m15s'), 5_415_000);
    assert.equal(parseDuration('2h45m30.5s'), 9_930_500);
    assert.equal(parseDuration('250ms'), 250);
    assert.equal(parseDuration('1m30s'), 90_000);
    assert.equal(parseDuration('1.5h'), 5_400_000);
    assert.equal(parseDuration('1500000us'), 1500);
    assert.equal(parseDuration('2000000000ns'), 2000);
    assert.equal(parseDuration('.5s'), 500);
  });

  it('reads proto JSON durations', () => {
    assert.equal(parseDuration('900s'), 900_000);
    assert.equal(parseDuration('86400s'), 86_400_000);
    assert.equal(parseDuration('1.5s'), 1500);
    assert.equal(parseDuration('0.000340012s'), 0);
  });

  it('reads zero', () => {
    assert.equal(parseDuration('0'), 0);
    assert.equal(parseDuration('0s'), 0);
    assert.equal(parseDuration(' 15m '), 900_000);
  });

  it('refuses anything else', () => {
    for (const bad of ['', ' ', '15', '900', 'm', '15x', '15M', '1h 30m', '-5s', '+5s', '1d', 'PT15M', 's15', '15m!', '1e3s',
      '99999999999999999999999h']) {
      assert.equal(parseDuration(bad), null, bad);
    }
  });
});
