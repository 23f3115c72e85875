import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomHex } from './crypto.js';
import { ensurePrivateDir, narrowExistingFile } from './private-files.js';

/**
 * SERVER_SECRET when set; otherwise one generated on first start and kept in DATA_DIR, so cursors and
 * sealed secrets survive restarts. Several API processes on one PostgreSQL database must share
 * SERVER_SECRET (see docs/operators/configuration.md).
 */
export function resolveServerSecret(configured: string | null, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'server-secret');
  ensurePrivateDir(dataDir);
  if (existsSync(file)) {
    narrowExistingFile(file);
    return readFileSync(file, 'utf8').trim();
  }
  const secret = randomHex(32);
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}
