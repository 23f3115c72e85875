import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';

/**
 * DATA_DIR holds the database and the server secret (which signs cursors and seals app secrets): only
 * the service's own user may read them. Directories are 0700, files 0600, whatever the umask says, and
 * ones an earlier version created wider are narrowed at start.
 */

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/** Narrows `target` to `mode` when group or others have any access. */
function narrow(target: string, mode: number): void {
  let current: number;
  try {
    current = statSync(target).mode & 0o777;
  } catch {
    return; // Not there (yet): nothing to narrow.
  }
  if ((current & 0o077) === 0) return;
  try {
    chmodSync(target, mode);
  } catch {
    // Owned by another user (a shared, pre-made directory): the operator's permissions stand.
  }
}

/** Creates `dir` (and missing parents) 0700, or narrows an existing one. */
export function ensurePrivateDir(dir: string): void {
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  narrow(dir, PRIVATE_DIR);
}

/** Creates `file` empty with mode 0600 when missing (so whoever fills it keeps that mode), or narrows it. */
export function ensurePrivateFile(file: string): void {
  if (!existsSync(file)) {
    try {
      closeSync(openSync(file, 'wx', PRIVATE_FILE));
    } catch (error) {
      // Created by another process between the check and the open: narrow what it made.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  narrow(file, PRIVATE_FILE);
}

/** Narrows `file` to 0600 if it exists; never creates it. */
export function narrowExistingFile(file: string): void {
  narrow(file, PRIVATE_FILE);
}
