import type { Tx } from '../../db/tx.js';
import { setCallbackBaseUrl } from '../accounts/apps.js';
import { updateAppCallbacks } from '../callbacks/subscriptions.js';
import type { EventType } from '../callbacks/nudges.js';
import { simulatorBaseUrl } from './address.js';

/**
 * Points a sandbox app at the simulator: its callback base URL set through the same function (and the same
 * target rules) as PATCH /admin/apps/{appId}, the app recorded as simulated (the simulator answers for no
 * other), and its event nudge subscriptions, so its deliveries show in the log from the first order on.
 */
export async function attachPartnerSimulator(tx: Tx, accountId: number, appId: number, eventTypes: readonly EventType[], now: Date): Promise<string> {
  const baseUrl = simulatorBaseUrl(appId);
  await setCallbackBaseUrl(tx, appId, baseUrl);
  await tx.insertInto('sandbox_partner_apps').values({ app_id: appId, account_id: accountId, created_at: now.toISOString() }).execute();
  if (eventTypes.length > 0) await updateAppCallbacks(tx, appId, { eventTypes }, now);
  return baseUrl;
}
