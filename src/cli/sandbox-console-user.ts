import type { Tx } from '../db/tx.js';
import { randomBase64Url } from '../lib/crypto.js';
import { createSellerUser } from '../domain/users/users.js';

export interface SandboxConsoleUser {
  email: string;
  password: string;
  role: 'OWNER';
}

/**
 * The sandbox seller's console sign-in: an OWNER with a fresh random password, printed once by the sandbox
 * command (only its hash is stored). The email names the account, so each sandbox run gets its own user.
 */
export async function createSandboxConsoleUser(tx: Tx, accountId: number, now: Date): Promise<SandboxConsoleUser> {
  const email = `owner+${accountId}@sandbox.example`;
  const password = randomBase64Url(15);
  await createSellerUser(tx, accountId, { email, password, role: 'OWNER' }, now);
  return { email, password, role: 'OWNER' };
}
