import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from './private-files.js';

/**
 * The server writes where it answers into DATA_DIR when it starts listening, so that CLI commands run
 * beside it (`npm run cli -- sandbox`) print URLs on the port it really uses, not the one the CLI's
 * shell happens to have in PORT.
 */
export interface ServerRecord {
  /** PUBLIC_BASE_URL when the server has one, else the address it listens on. */
  url: string;
  /** Which database the server serves (databaseLabel): a record is only used for the same database. */
  database: string;
  pid: number;
  startedAt: string;
}

const FILE = 'server.json';

/** `http://host:port` for a listening address; a wildcard host is reached as localhost. */
export function listenUrl(host: string, port: number): string {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '';
  const name = wildcard ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

export function recordServer(dataDir: string, record: ServerRecord): void {
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  // Written aside and renamed, so a reader never sees half a file.
  writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

function isRecord(value: unknown): value is ServerRecord {
  const v = value as Partial<ServerRecord> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.url === 'string' &&
    typeof v.database === 'string' &&
    typeof v.pid === 'number' &&
    typeof v.startedAt === 'string'
  );
}

/** The last server's record in dataDir, or null when none (or an unreadable one) is there. */
export function readServerRecord(dataDir: string): ServerRecord | null {
  const file = path.join(dataDir, FILE);
  if (!existsSync(file)) return null;
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/** Whether a process with this id exists (it may belong to another user: EPERM still means yes). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
