import { withTx, type Db, type Tx } from '../../db/tx.js';
import { revokeInstallation } from '../accounts/installations.js';
import { badGateway, conflict, failedPrecondition, invalidField, notFound } from '../errors.js';
import { attemptDelivery } from './attempt.js';
import { createDelivery } from './deliveries.js';
import type { DeliveryPorts } from './ports.js';
import type { StatusCheck } from './status-checks.js';

/**
 * The seller's and operator's callback triggers (resolutions §5, DESIGN "Operator API"): request ingestion,
 * check a storefront, disconnect it. Document 6.1 gives the three calls; storefrontId travels as a string.
 */

interface Storefront {
  storefrontId: number;
  appId: number;
  active: boolean;
  baseUrl: string | null;
}

async function storefrontOf(db: Db, accountId: number, storefrontId: number): Promise<Storefront> {
  const row = await db
    .selectFrom('installations')
    .innerJoin('apps', 'apps.id', 'installations.app_id')
    .select(['installations.id', 'installations.app_id', 'installations.status', 'apps.callback_base_url'])
    .where('installations.account_id', '=', accountId)
    .where('installations.id', '=', storefrontId)
    .where('installations.kind', '=', 'SALES_CHANNEL')
    .executeTakeFirst();
  if (!row) throw notFound(`storefront ${storefrontId} not found`);
  return { storefrontId: row.id, appId: row.app_id, active: row.status === 'ACTIVE', baseUrl: row.callback_base_url };
}

function requireCallbacks(storefront: Storefront): void {
  if (!storefront.baseUrl) {
    throw failedPrecondition(`the app of storefront ${storefront.storefrontId} has no callbackBaseUrl: the partner receives no callbacks`).because('app.no_callback_url', {});
  }
}

function requireActive(storefront: Storefront): void {
  if (!storefront.active) throw conflict(`storefront ${storefront.storefrontId} is disconnected`);
}

export interface IngestionRequestInput {
  skus?: readonly string[];
  autoApplyIngestionPlan?: boolean;
}

/** Queues POST {base}/ingestion/initiate {storefrontId, skus (empty = all), autoApplyIngestionPlan}. */
export async function requestIngestion(tx: Tx, accountId: number, storefrontId: number, input: IngestionRequestInput, now: Date): Promise<{ deliveryId: string }> {
  const storefront = await storefrontOf(tx, accountId, storefrontId);
  requireActive(storefront);
  requireCallbacks(storefront);
  const skus = [...new Set(input.skus ?? [])];
  if (skus.some((s) => s.trim() === '')) throw invalidField('skus', 'a SKU must not be blank');
  const { deliveryId } = await createDelivery(
    tx,
    {
      accountId,
      appId: storefront.appId,
      storefrontId,
      kind: 'INITIATE_INGESTION',
      method: 'POST',
      path: '/ingestion/initiate',
      body: { storefrontId: String(storefrontId), skus, autoApplyIngestionPlan: input.autoApplyIngestionPlan ?? false },
    },
    now,
  );
  return { deliveryId };
}

/**
 * Disconnects a storefront: its installation is revoked with every token at once (its next poll answers
 * 401), and DELETE {base}/v2/storefront/configuration/{storefrontId} is queued in the same transaction
 * (resolutions §8: revoked first, the callback delivered afterwards). Without a callback base URL the
 * storefront is still disconnected and no callback is queued (deliveryId null).
 */
export async function disconnectStorefront(tx: Tx, accountId: number, storefrontId: number, now: Date): Promise<{ deliveryId: string | null }> {
  const storefront = await storefrontOf(tx, accountId, storefrontId);
  requireActive(storefront);
  await revokeInstallation(tx, accountId, storefrontId, now);
  if (!storefront.baseUrl) return { deliveryId: null };
  const { deliveryId } = await createDelivery(
    tx,
    {
      accountId,
      appId: storefront.appId,
      storefrontId,
      kind: 'DELETE_CONFIGURATION',
      method: 'DELETE',
      path: `/v2/storefront/configuration/${storefrontId}`,
      body: null,
    },
    now,
  );
  return { deliveryId };
}

export interface StatusCheckResult {
  checks: StatusCheck[];
  checkedAt: string;
  deliveryId: string;
}

/**
 * GET {base}/v2/storefront/status/{storefrontId}, answered synchronously: the delivery row is committed
 * first, the call made after the commit (never inside a transaction), then the attempt recorded and the
 * checks stored with their time. A failure is a 502 naming it; the delivery ends DEAD (no retry: the
 * seller is waiting) and can be replayed.
 */
export async function checkStorefrontStatus(deps: DeliveryPorts, accountId: number, storefrontId: number): Promise<StatusCheckResult> {
  const created = await withTx(deps.db.db, async (tx) => {
    const storefront = await storefrontOf(tx, accountId, storefrontId);
    requireActive(storefront);
    requireCallbacks(storefront);
    return createDelivery(
      tx,
      { accountId, appId: storefront.appId, storefrontId, kind: 'STOREFRONT_STATUS', method: 'GET', path: `/v2/storefront/status/${storefrontId}`, body: null },
      deps.clock.now(),
      false,
    );
  });
  const result = await attemptDelivery(deps, accountId, created.rowId, null, false);
  if (result.state === 'SUCCEEDED' && result.checks && result.checkedAt) {
    return { checks: result.checks, checkedAt: result.checkedAt, deliveryId: created.deliveryId };
  }
  const why = result.outcome?.error ?? 'the attempt was not made';
  throw badGateway(`the storefront status check failed (delivery ${created.deliveryId}): ${why}`);
}
