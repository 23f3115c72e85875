import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import path from 'node:path';
import { ConfigError, databaseLabel, loadConfig, startupWarnings } from '../../src/config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  assert.fail(`expected ${JSON.stringify(env)} to be refused`);
}

describe('loadConfig', () => {
  it('has working defaults for development', () => {
    const c = loadConfig({});
    assert.equal(c.production, false);
    assert.equal(c.port, 8080);
    assert.equal(c.dataDir, './data');
    assert.equal(c.databaseUrl, null);
    assert.equal(c.adminToken, null);
    assert.equal(c.rateLimitRps, 10);
    assert.equal(c.rateLimitBurst, 10);
    assert.equal(c.redisUrl, null);
    assert.equal(c.logLevel, 'info');
    assert.equal(c.worker, 'inline');
    assert.equal(c.jsonBodyLimitBytes, 10 * 1024 * 1024);
    assert.equal(c.uploadBodyLimitBytes, 200 * 1024 * 1024);
    assert.equal(c.pgPoolSize, 10);
    assert.equal(loadConfig({ PG_POOL_SIZE: '25' }).pgPoolSize, 25);
    assert.equal(c.workerCallbackConcurrency, 8);
    assert.equal(loadConfig({ WORKER_CALLBACK_CONCURRENCY: '0' }).workerCallbackConcurrency, 0);
    assert.equal(loadConfig({}).dbSpeedUps, true);
    assert.equal(loadConfig({ DB_SPEEDUPS: 'OFF' }).dbSpeedUps, false);
    // A dead worker's job is taken over within 30 s (issue 22): the default lease is shorter than that.
    assert.equal(c.jobLeaseMs, 20_000);
    assert.equal(loadConfig({ JOB_LEASE_SECONDS: '5' }).jobLeaseMs, 5_000);
    assert.throws(() => loadConfig({ JOB_LEASE_SECONDS: '1' }), /JOB_LEASE_SECONDS/);
  });

  it('reads every variable', () => {
    const c = loadConfig({
      NODE_ENV: 'production',
      PORT: '9090',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/mcs',
      DATABASE_URL: 'postgres://u:p@db:5432/mcs',
      ADMIN_TOKEN: 'a-long-enough-admin-token',
      PUBLIC_BASE_URL: 'https://api.example.com/',
      SERVER_SECRET: 's'.repeat(32),
      RATE_LIMIT_RPS: '0',
      RATE_LIMIT_BURST: '20',
      REDIS_URL: 'redis://cache:6379',
      LOG_LEVEL: 'warn',
      WORKER: 'off',
      JSON_BODY_LIMIT_MB: '2',
      UPLOAD_BODY_LIMIT_MB: '50',
    });
    assert.equal(c.production, true);
    assert.equal(c.port, 9090);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.dataDir, '/var/lib/mcs');
    assert.equal(c.databaseUrl, 'postgres://u:p@db:5432/mcs');
    assert.equal(c.adminToken, 'a-long-enough-admin-token');
    assert.equal(c.publicBaseUrl, 'https://api.example.com', 'trailing slash dropped');
    assert.equal(c.rateLimitRps, 0, '0 turns limiting off');
    assert.equal(c.rateLimitBurst, 20);
    assert.equal(c.redisUrl, 'redis://cache:6379');
    assert.equal(c.logLevel, 'warn');
    assert.equal(c.worker, 'off');
    assert.equal(c.jsonBodyLimitBytes, 2 * 1024 * 1024);
    assert.equal(c.uploadBodyLimitBytes, 50 * 1024 * 1024);
  });

  it('treats empty values as unset', () => {
    const c = loadConfig({ PORT: '', DATABASE_URL: '  ', ADMIN_TOKEN: '' });
    assert.equal(c.port, 8080);
    assert.equal(c.databaseUrl, null);
    assert.equal(c.adminToken, null);
  });

  it('accepts postgresql:// and rediss:// and a LOG_LEVEL in any case', () => {
    const c = loadConfig({ DATABASE_URL: 'postgresql://localhost/x', REDIS_URL: 'rediss://cache:6380', LOG_LEVEL: 'DEBUG' });
    assert.equal(c.databaseUrl, 'postgresql://localhost/x');
    assert.equal(c.redisUrl, 'rediss://cache:6380');
    assert.equal(c.logLevel, 'debug');
  });

  it('refuses production without ADMIN_TOKEN', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /ADMIN_TOKEN/);
  });

  const cases: [Record<string, string>, string][] = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ PORT: '80.5' }, 'PORT'],
    [{ RATE_LIMIT_RPS: 'ten' }, 'RATE_LIMIT_RPS'],
    [{ RATE_LIMIT_RPS: '-3' }, 'RATE_LIMIT_RPS'],
    [{ RATE_LIMIT_BURST: '0' }, 'RATE_LIMIT_BURST'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'mysql://localhost/x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
    [{ PUBLIC_BASE_URL: 'ftp://example.com' }, 'PUBLIC_BASE_URL'],
    [{ PUBLIC_BASE_URL: 'example.com' }, 'PUBLIC_BASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ WORKER: 'sometimes' }, 'WORKER'],
    [{ DB_SPEEDUPS: 'fast' }, 'DB_SPEEDUPS'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN'],
    [{ SERVER_SECRET: 'too-short' }, 'SERVER_SECRET'],
    [{ JSON_BODY_LIMIT_MB: '0' }, 'JSON_BODY_LIMIT_MB'],
    [{ UPLOAD_BODY_LIMIT_MB: 'lots' }, 'UPLOAD_BODY_LIMIT_MB'],
    [{ PG_POOL_SIZE: '0' }, 'PG_POOL_SIZE'],
    [{ WORKER_CALLBACK_CONCURRENCY: '257' }, 'WORKER_CALLBACK_CONCURRENCY'],
    [{ WORKER_CALLBACK_CONCURRENCY: 'many' }, 'WORKER_CALLBACK_CONCURRENCY'],
    [{ TRUST_PROXY: '2' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1, proxy.example' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: ',' }, 'TRUST_PROXY'],
  ];
  for (const [env, variable] of cases) {
    it(`refuses ${JSON.stringify(env)} with a message naming ${variable}`, () => {
      const problems = problemsOf(env);
      assert.equal(problems.length, 1, problems.join('; '));
      assert.ok(problems[0]!.startsWith(variable), problems[0]);
    });
  }

  it('reports every problem at once, in one readable message', () => {
    try {
      loadConfig({ PORT: 'x', WORKER: 'y', NODE_ENV: 'production' });
      assert.fail('expected a ConfigError');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 3);
      assert.match(error.message, /PORT/);
      assert.match(error.message, /WORKER/);
      assert.match(error.message, /ADMIN_TOKEN/);
    }
  });

  it('reads METRICS_PORT (unset: /metrics on the API port) and METRICS_HOST (default 127.0.0.1)', () => {
    const c = loadConfig({});
    assert.equal(c.metricsPort, null);
    assert.equal(c.metricsHost, '127.0.0.1');
    const moved = loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' });
    assert.equal(moved.metricsPort, 9464);
    assert.equal(moved.metricsHost, '0.0.0.0');
    assert.equal(loadConfig({ METRICS_PORT: ' ' }).metricsPort, null);
    for (const bad of ['x', '-1', '70000']) {
      const problems = problemsOf({ METRICS_PORT: bad });
      assert.equal(problems.length, 1);
      assert.ok(problems[0]!.startsWith('METRICS_PORT must be a whole number'), problems[0]);
    }
  });

  it('reads TRUST_PROXY as off (default), true, or proxy addresses and ranges', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'TRUE' }).trustProxy, true);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,loopback,::1,fd00::/8' }).trustProxy, [
      '10.0.0.0/8',
      '192.0.2.7',
      'loopback',
      '::1',
      'fd00::/8',
    ]);
  });

  it('warns in production when PUBLIC_BASE_URL is unset, not in development', () => {
    const production = { NODE_ENV: 'production', ADMIN_TOKEN: 'a-long-enough-admin-token' };
    const warnings = startupWarnings(loadConfig(production));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /PUBLIC_BASE_URL/);
    assert.deepEqual(startupWarnings(loadConfig({ ...production, PUBLIC_BASE_URL: 'https://api.example.com' })), []);
    assert.deepEqual(startupWarnings(loadConfig({})), []);
  });

  it('names the database for people: the SQLite file path, or the PostgreSQL URL without its password', () => {
    assert.equal(databaseLabel(loadConfig({ DATA_DIR: 'some/dir' })), path.resolve('some/dir/service.db'));
    assert.equal(
      databaseLabel(loadConfig({ DATABASE_URL: 'postgres://mcs:s3cret@db.internal:5432/commerce?sslmode=require&password=s3cret' })),
      'postgres://mcs@db.internal:5432/commerce?sslmode=require',
    );
  });
});
