import { isIP } from 'node:net';
import path from 'node:path';

/**
 * Configuration comes only from environment variables, read once here and validated; a bad value stops
 * the start with a message naming the variable. Nothing else reads process.env.
 */
export interface Config {
  production: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** Connections each process keeps to PostgreSQL. */
  pgPoolSize: number;
  /**
   * DB_SPEEDUPS: "on" (default) or "off". Off runs every query the plain way (docs/architecture.md, "The
   * database's fast paths"): a diagnostic switch for an operator who suspects one of them, never faster.
   */
  dbSpeedUps: boolean;
  adminToken: string | null;
  publicBaseUrl: string | null;
  /**
   * Which peers may set X-Forwarded-For/-Host/-Proto (Fastify's trustProxy): false (default: nobody),
   * true (any peer), or addresses, CIDR ranges and proxy-addr's names (loopback, linklocal, uniquelocal).
   */
  trustProxy: boolean | string[];
  serverSecret: string | null;
  rateLimitRps: number;
  rateLimitBurst: number;
  redisUrl: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  worker: 'inline' | 'off';
  /**
   * WORKER_CALLBACK_CONCURRENCY: callback deliveries a worker process sends at once, beside its main loop
   * (src/jobs/worker.ts). Each waits mostly on the partner, up to the 15 s send timeout.
   */
  workerCallbackConcurrency: number;
  /**
   * JOB_LEASE_SECONDS: how long a claimed job stays leased to its worker without a heartbeat (renewed every
   * quarter of it while the job runs), so a dead worker's job is taken over within this time.
   */
  jobLeaseMs: number;
  /**
   * INGESTION_APPLY_WAIT_MS: how long a seller's request to apply an ingestion plan applies chunks itself before
   * it answers (202 with the progress; the apply job does the rest).
   */
  ingestionApplyWaitMs: number;
  jsonBodyLimitBytes: number;
  uploadBodyLimitBytes: number;
  /** Days a SUCCEEDED job is kept before the retention sweep deletes it; 0 keeps them all. */
  jobRetentionDays: number;
  /** Directory of the file store; null keeps files in the database (shared by every process). */
  fileStoreDir: string | null;
  /** Days a finished report (and its files) or import validation is kept; 0 keeps them all. */
  reportRetentionDays: number;
  /**
   * CALLBACKS_ALLOW_PRIVATE (resolutions §8): callbacks may go to plain http and to loopback, private or
   * link-local addresses. Off by default; the sandbox and the tests turn it on.
   */
  callbacksAllowPrivate: boolean;
  /**
   * METRICS_PORT: serve GET /metrics (Prometheus) on this port only, without authentication, bound to
   * METRICS_HOST. null (unset): /metrics is on the API port, protected like /admin.
   */
  metricsPort: number | null;
  /** METRICS_HOST: the address the metrics port binds to; default 127.0.0.1 (this host only). */
  metricsHost: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** One TRUST_PROXY entry: an IP address, an address/prefix range, or a proxy-addr range name. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}
const MIB = 1024 * 1024;

export function loadConfig(env: Record<string, string | undefined>): Config {
  const problems: string[] = [];
  const text = (name: string): string | null => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? null : v.trim();
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const v = text(name);
    if (v === null) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}, got "${v}"`);
      return fallback;
    }
    return Number(v);
  };
  const url = (name: string, protocols: string[]): string | null => {
    const v = text(name);
    if (v === null) return null;
    try {
      const parsed = new URL(v);
      if (!protocols.includes(parsed.protocol)) {
        problems.push(`${name} must be a ${protocols.map((p) => p.replace(':', '://')).join(' or ')} URL`);
        return null;
      }
      return v;
    } catch {
      problems.push(`${name} is not a valid URL`);
      return null;
    }
  };

  const production = (text('NODE_ENV') ?? 'development') === 'production';
  // Words are matched in any case: LOG_LEVEL=INFO is what many deployment templates write.
  const logLevel = (text('LOG_LEVEL')?.toLowerCase() ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const allowPrivate = text('CALLBACKS_ALLOW_PRIVATE')?.toLowerCase() ?? 'false';
  if (allowPrivate !== 'true' && allowPrivate !== 'false') problems.push(`CALLBACKS_ALLOW_PRIVATE must be "true" or "false", got "${allowPrivate}"`);
  const speedUps = text('DB_SPEEDUPS')?.toLowerCase() ?? 'on';
  if (speedUps !== 'on' && speedUps !== 'off') problems.push(`DB_SPEEDUPS must be "on" or "off", got "${speedUps}"`);
  const worker = (text('WORKER')?.toLowerCase() ?? 'inline') as Config['worker'];
  if (worker !== 'inline' && worker !== 'off') problems.push(`WORKER must be "inline" or "off", got "${worker}"`);

  const adminToken = text('ADMIN_TOKEN');
  if (adminToken !== null && adminToken.length < 16) problems.push('ADMIN_TOKEN must be at least 16 characters');
  if (production && adminToken === null) problems.push('ADMIN_TOKEN is required when NODE_ENV=production');
  const serverSecret = text('SERVER_SECRET');
  if (serverSecret !== null && serverSecret.length < 32) problems.push('SERVER_SECRET must be at least 32 characters');

  const publicBaseUrl = url('PUBLIC_BASE_URL', ['http:', 'https:']);
  const trustProxy = ((): Config['trustProxy'] => {
    const v = text('TRUST_PROXY');
    if (v === null || v.toLowerCase() === 'false') return false;
    if (v.toLowerCase() === 'true') return true;
    const entries = v.split(',').map((e) => e.trim().toLowerCase()).filter((e) => e !== '');
    const bad = entries.filter((e) => !isProxyEntry(e));
    // A hop count is refused: Fastify cannot check the peer with it and would trust nobody.
    if (bad.length > 0 || entries.length === 0) {
      problems.push(
        `TRUST_PROXY must be true, false, or a comma-separated list of proxy addresses or ranges (10.0.0.0/8, loopback), got "${v}"`,
      );
      return false;
    }
    return entries;
  })();
  const config: Config = {
    production,
    port: int('PORT', 8080, 0, 65535),
    host: text('HOST') ?? '127.0.0.1',
    dataDir: text('DATA_DIR') ?? './data',
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    pgPoolSize: int('PG_POOL_SIZE', 10, 1, 1000),
    dbSpeedUps: speedUps !== 'off',
    adminToken,
    publicBaseUrl: publicBaseUrl ? publicBaseUrl.replace(/\/+$/, '') : null,
    trustProxy,
    serverSecret,
    rateLimitRps: int('RATE_LIMIT_RPS', 10, 0, 1_000_000),
    rateLimitBurst: int('RATE_LIMIT_BURST', 10, 1, 1_000_000),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    logLevel,
    worker,
    workerCallbackConcurrency: int('WORKER_CALLBACK_CONCURRENCY', 8, 0, 256),
    jobLeaseMs: int('JOB_LEASE_SECONDS', 20, 4, 3600) * 1000,
    ingestionApplyWaitMs: int('INGESTION_APPLY_WAIT_MS', 2000, 0, 60_000),
    jsonBodyLimitBytes: int('JSON_BODY_LIMIT_MB', 10, 1, 1024) * MIB,
    uploadBodyLimitBytes: int('UPLOAD_BODY_LIMIT_MB', 200, 1, 4096) * MIB,
    jobRetentionDays: int('JOB_RETENTION_DAYS', 7, 0, 3650),
    fileStoreDir: text('FILE_STORE_DIR'),
    reportRetentionDays: int('REPORT_RETENTION_DAYS', 90, 0, 36500),
    callbacksAllowPrivate: allowPrivate === 'true',
    metricsPort: text('METRICS_PORT') === null ? null : int('METRICS_PORT', 0, 0, 65535),
    metricsHost: text('METRICS_HOST') ?? '127.0.0.1',
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Settings that work but are probably a mistake, printed and logged at start. */
export function startupWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.production && config.publicBaseUrl === null) {
    warnings.push(
      'PUBLIC_BASE_URL is not set: absolute URLs (v1 nextToken links) are built from each request\'s Host header. ' +
        'Set it to the address partners use, e.g. PUBLIC_BASE_URL=https://api.example.com',
    );
  }
  return warnings;
}

/** The embedded database's file, when DATABASE_URL is unset. */
export function sqliteFileOf(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'service.db');
}

/** Which database this configuration uses, for people: the SQLite file's absolute path, or the PostgreSQL URL without its password. */
export function databaseLabel(config: Pick<Config, 'dataDir' | 'databaseUrl'>): string {
  if (config.databaseUrl === null) return path.resolve(sqliteFileOf(config));
  const url = new URL(config.databaseUrl);
  url.password = '';
  url.searchParams.delete('password');
  return url.toString();
}
