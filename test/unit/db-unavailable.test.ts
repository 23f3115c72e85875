import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { toAppError } from '../../src/http/plugins/errors.js';
import { MAX_POLL_BACKOFF_MS, pollDelayMs } from '../../src/jobs/worker.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('database unavailable: which errors are a 503 (retry later) rather than a 500', () => {
  it('network failures, PostgreSQL shutdown/startup states and connection exceptions', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300', '08006', '08001', '08P01']) {
      assert.equal(isDatabaseUnavailable(withCode(code)), true, code);
    }
  });

  it('pg and pg-pool messages for a lost or never-made connection', () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Client was closed and is not queryable',
      'Client has encountered a connection error and is not queryable',
    ]) {
      assert.equal(isDatabaseUnavailable(new Error(message)), true, message);
    }
  });

  it('a refused dual-stack connect (AggregateError) and a wrapped cause', () => {
    assert.equal(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed')), true);
    assert.equal(isDatabaseUnavailable(new Error('outer', { cause: withCode('57P01') })), true);
  });

  it('SQLite: locked past the busy timeout, I/O errors, a file that cannot be opened, a full disk', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'SQLITE_IOERR_WRITE', 'SQLITE_CANTOPEN', 'SQLITE_FULL']) {
      assert.equal(isDatabaseUnavailable(withCode(code)), true, code);
    }
  });

  it('query errors stay errors: constraints, syntax, corruption, serialization, unknown', () => {
    for (const code of ['23505', '42P01', '40001', '22P02', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', 'SQLITE_CORRUPT', 'SQLITE_BUSYNESS']) {
      assert.equal(isDatabaseUnavailable(withCode(code)), false, code);
    }
    assert.equal(isDatabaseUnavailable(new Error('boom')), false);
    assert.equal(isDatabaseUnavailable(withCode('SQLITE_ERROR', 'Connection terminated')), false);
    assert.equal(isDatabaseUnavailable(null), false);
    assert.equal(isDatabaseUnavailable('ECONNREFUSED'), false);
  });

  it('the error renderer maps them to UNAVAILABLE (503, grpc 14) with a fixed message', () => {
    const { appError, internal } = toAppError(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'));
    assert.equal(internal, false);
    assert.equal(appError.code, 'UNAVAILABLE');
    assert.equal(appError.status, 503);
    assert.doesNotMatch(appError.message, /ECONNREFUSED|5432/);
    assert.equal(toAppError(withCode('SQLITE_BUSY', 'database is locked')).appError.status, 503);
    assert.equal(toAppError(withCode('23505')).appError.status, 500);
  });
});

describe('job worker poll backoff while polls fail', () => {
  it('the normal interval while polls succeed, then doubling up to the cap', () => {
    assert.equal(pollDelayMs(1000, 0), 1000);
    assert.equal(pollDelayMs(1000, 1), 2000);
    assert.equal(pollDelayMs(1000, 2), 4000);
    assert.equal(pollDelayMs(1000, 10), MAX_POLL_BACKOFF_MS);
    assert.equal(pollDelayMs(1000, 1000), MAX_POLL_BACKOFF_MS);
    // A tiny poll interval still backs off from a sensible floor.
    assert.ok(pollDelayMs(5, 1) >= 250);
  });
});
