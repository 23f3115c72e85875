import type { Db } from '../../db/tx.js';
import type { Signer } from '../../lib/signer.js';

export interface CallbackTarget {
  /** Null when the app registered no callback base URL. */
  baseUrl: string | null;
  /** Current secret first, then the previous one while its rotation overlap lasts (5.5). */
  secrets: string[];
}

/** The app's callback base URL and active signing secrets, unsealed; null when the app does not exist. */
export async function callbackTargetOf(db: Db, signer: Signer, appId: number, now: Date): Promise<CallbackTarget | null> {
  const app = await db
    .selectFrom('apps')
    .select(['callback_base_url', 'callback_signing_secret_sealed', 'previous_callback_signing_secret_sealed', 'previous_secret_expires_at'])
    .where('id', '=', appId)
    .executeTakeFirst();
  if (!app) return null;
  const secrets = [signer.unseal(app.callback_signing_secret_sealed)];
  if (app.previous_callback_signing_secret_sealed && app.previous_secret_expires_at && app.previous_secret_expires_at > now.toISOString()) {
    secrets.push(signer.unseal(app.previous_callback_signing_secret_sealed));
  }
  return { baseUrl: app.callback_base_url, secrets };
}

/** The base URL with the callback path appended; the base's own path prefix is kept. */
export function joinCallbackUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}
