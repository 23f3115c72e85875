import type { Db, Tx } from '../../db/tx.js';
import { emitStorefrontProductDataNudge } from '../callbacks/nudges.js';
import { invalidField, notFound } from '../errors.js';
import { isStorefrontOf } from '../accounts/installations.js';

/**
 * Integration-level settings of a storefront (2.12 Variant.settings: "integration-level settings merged
 * with variant-level settings"). Variant-level values win on a key both set.
 */

/** The storefront (a SALES_CHANNEL installation of the account), else 404. */
export async function requireStorefront(db: Db, accountId: number, storefrontId: number): Promise<void> {
  if (!(await isStorefrontOf(db, accountId, storefrontId))) throw notFound(`storefront ${storefrontId} not found in this account`);
}

export async function storefrontSettingsFor(db: Db, accountId: number, storefrontId: number): Promise<Record<string, string>> {
  const row = await db
    .selectFrom('storefront_settings')
    .select('settings')
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.settings) as Record<string, string>) : {};
}

/** A settings map: string keys to string values (proto map<string,string>). */
export function checkSettings(path: string, value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidField(path, 'must be an object of string values');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw invalidField(`${path}.${k}`, 'must be a string');
    out[k] = v;
  }
  return out;
}

/**
 * Replaces the storefront's settings. Every variant's merged settings change with them, so the storefront's
 * listings move in product_data/updated (settings are part of what the channel is sent).
 */
export async function setStorefrontSettings(
  tx: Tx,
  accountId: number,
  storefrontId: number,
  settings: Record<string, string>,
  now: Date,
): Promise<Record<string, string>> {
  await requireStorefront(tx, accountId, storefrontId);
  const iso = now.toISOString();
  const text = JSON.stringify(settings);
  const before = await storefrontSettingsFor(tx, accountId, storefrontId);
  await tx
    .insertInto('storefront_settings')
    .values({ account_id: accountId, storefront_id: storefrontId, settings: text, updated_at: iso })
    .onConflict((oc) => oc.columns(['account_id', 'storefront_id']).doUpdateSet({ settings: text, updated_at: iso }))
    .execute();
  if (JSON.stringify(before) !== text) {
    const moved = await tx
      .updateTable('listings')
      .set({ poll_updated_at: iso })
      .where('account_id', '=', accountId)
      .where('storefront_id', '=', storefrontId)
      .where('poll_updated_at', '<', iso)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) > 0) await emitStorefrontProductDataNudge(tx, accountId, storefrontId, now);
  }
  return settings;
}
