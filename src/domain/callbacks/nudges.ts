import { compiledStatement, readAhead } from '../../db/fast-paths.js';
import type { Db } from '../../db/tx.js';
import { createDelivery } from './deliveries.js';

/**
 * Extension nudges (issue 11 item 5; docs/partners/callback-nudges.md): beyond the contract, an app may
 * subscribe to event types and receive a small signed POST {base}/events naming the object and the version
 * to read, so it polls on a nudge instead of on a timer. Pull stays the truth (document 6.3): a nudge carries
 * ids only, may arrive late, twice, or coalesced with later events, and is never needed for correctness.
 */

export const EVENT_TYPES = [
  'FULFILLMENT_ORDER_CHANGED',
  'CANCELLATION_REQUESTED',
  'ORDER_SHIPPED',
  'LISTING_PRODUCT_DATA_CHANGED',
  'VARIANT_INVENTORY_CHANGED',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Who hears of an event: the integration owning the fulfillment order, or the storefront owning the object. */
const AUDIENCE: Record<EventType, 'integration' | 'storefront'> = {
  FULFILLMENT_ORDER_CHANGED: 'integration',
  CANCELLATION_REQUESTED: 'integration',
  ORDER_SHIPPED: 'storefront',
  LISTING_PRODUCT_DATA_CHANGED: 'storefront',
  VARIANT_INVENTORY_CHANGED: 'storefront',
};

export const NUDGE_PATH = '/events';

/** installation id → app id, for the account's ACTIVE installations whose app subscribed and has a base URL. */
export type Subscribers = ReadonlyMap<number, number>;

/**
 * Per transaction, so a change touching many objects pays one lookup per event type. Only transactions are
 * cached (a plain connection would keep a stale answer across requests); a WeakMap lets them be collected.
 * An entry may be a lookup sent ahead and not answered yet (prefetchNudgeSubscribers).
 */
/** Per transaction: each lookup once, as a function to call when it is needed (a read sent ahead waits only then). */
const cache = new WeakMap<object, Map<string, () => Promise<Subscribers>>>();

// Runs with every write that may nudge, so it is compiled once (src/db/compiled.ts).
const subscribersOf = compiledStatement<{ id: number; app_id: number }, { accountId: number; eventType: EventType }>((db, arg) =>
  db
    .selectFrom('app_event_subscriptions as s')
    .innerJoin('installations as i', 'i.app_id', 's.app_id')
    .innerJoin('apps as a', 'a.id', 's.app_id')
    .select(['i.id', 'i.app_id'])
    .where('s.event_type', '=', arg<EventType>('eventType'))
    .where('i.account_id', '=', arg<number>('accountId'))
    .where('i.status', '=', 'ACTIVE')
    .where('a.callback_base_url', 'is not', null),
);

/** The per-transaction cache's key. */
const keyOf = (accountId: number, eventType: EventType) => `${accountId}:${eventType}`;

const subscribersFrom = (rows: readonly { id: number; app_id: number }[]): Subscribers => new Map(rows.map((r) => [Number(r.id), Number(r.app_id)]));

/**
 * The installations of `accountId` that want `eventType`: one indexed lookup (or none, cached), so emitting
 * where nobody subscribed costs next to nothing. Callers with an object to read first may skip it when empty.
 */
export async function nudgeSubscribers(tx: Db, accountId: number, eventType: EventType): Promise<Subscribers> {
  if (!tx.isTransaction) return subscribersFrom(await subscribersOf.all(tx, { accountId, eventType }));
  const perTx = cachedFor(tx);
  const key = keyOf(accountId, eventType);
  let found = perTx.get(key);
  if (!found) {
    const looked = subscribersOf.all(tx, { accountId, eventType }).then(subscribersFrom);
    perTx.set(key, (found = () => looked));
    forgetIfFailed(perTx, key, found, looked);
  }
  return found();
}

/**
 * A lookup that failed is not kept: in a batch whose entries run in savepoints of one transaction
 * (src/db/entry-savepoint.ts) it may have carried the failure of a statement of the entry that was rolled back,
 * and the next entries must look again rather than fail with it.
 */
function forgetIfFailed(perTx: Map<string, () => Promise<Subscribers>>, key: string, found: () => Promise<Subscribers>, looked: Promise<Subscribers>): void {
  looked.catch(() => {
    if (perTx.get(key) === found) perTx.delete(key);
  });
}

/**
 * Sends the lookup of nudgeSubscribers ahead (src/db/unanswered.ts), for a transaction that will emit this event
 * type later: the nudge then costs no round trip of its own. A no-op outside a transaction or when cached.
 */
export async function prefetchNudgeSubscribers(tx: Db, accountId: number, eventType: EventType): Promise<void> {
  if (!tx.isTransaction) return;
  const perTx = cachedFor(tx);
  const key = keyOf(accountId, eventType);
  if (perTx.has(key)) return;
  const answer = await readAhead(tx, subscribersOf.bound(tx, { accountId, eventType }));
  // Taken by a later nudgeSubscribers, or never (the transaction emitted nothing, or failed).
  let found: Promise<Subscribers> | null = null;
  const take = () => {
    if (found === null) {
      found = answer().then(subscribersFrom);
      forgetIfFailed(perTx, key, take, found);
    }
    return found;
  };
  perTx.set(key, take);
}

/** The subscribers this transaction already looked up or sent ahead (no statement), else undefined. */
export function knownNudgeSubscribers(tx: Db, accountId: number, eventType: EventType): Promise<Subscribers> | undefined {
  return tx.isTransaction ? cache.get(tx)?.get(keyOf(accountId, eventType))?.() : undefined;
}

function cachedFor(tx: Db): Map<string, () => Promise<Subscribers>> {
  let perTx = cache.get(tx);
  if (!perTx) cache.set(tx, (perTx = new Map()));
  return perTx;
}

export interface NudgeEvent {
  accountId: number;
  eventType: EventType;
  /** The storefront or integration the object belongs to. */
  installationId: number;
  objectType: string;
  objectId: string;
  /** What the partner reads back to know it is current: the object's updated timestamp or version id. */
  version: string;
}

/**
 * A change that moved the product poll position of many listings of a storefront at once (its settings, a
 * product type's maxUniqueItems): one nudge for the storefront instead of one per listing.
 */
export async function emitStorefrontProductDataNudge(tx: Db, accountId: number, storefrontId: number, now: Date): Promise<void> {
  const iso = now.toISOString();
  await emitNudge(
    tx,
    { accountId, eventType: 'LISTING_PRODUCT_DATA_CHANGED', installationId: storefrontId, objectType: 'STOREFRONT', objectId: String(storefrontId), version: iso },
    now,
  );
}

export interface NudgeBody {
  eventType: EventType;
  storefrontId?: string;
  integrationId?: string;
  objectType: string;
  objectId: string;
  version: string;
  occurredAt: string;
}

/**
 * Queues the nudge of one event in the transaction that causes it, when the owning installation's app
 * subscribed. A nudge for the same (installation, event type, object) still PENDING and unsent takes the
 * new version instead (coalescing a burst into one POST). Nothing is sent here.
 */
export async function emitNudge(tx: Db, event: NudgeEvent, now: Date): Promise<void> {
  const appId = (await nudgeSubscribers(tx, event.accountId, event.eventType)).get(event.installationId);
  if (appId === undefined) return;
  const audience = AUDIENCE[event.eventType];
  const id = String(event.installationId);
  const body: NudgeBody = {
    eventType: event.eventType,
    ...(audience === 'storefront' ? { storefrontId: id } : { integrationId: id }),
    objectType: event.objectType,
    objectId: event.objectId,
    version: event.version,
    occurredAt: now.toISOString(),
  };
  await createDelivery(
    tx,
    {
      accountId: event.accountId,
      appId,
      storefrontId: audience === 'storefront' ? event.installationId : null,
      kind: 'NUDGE',
      method: 'POST',
      path: NUDGE_PATH,
      body,
      coalesceKey: `${event.installationId}:${event.eventType}:${event.objectType}:${event.objectId}`,
    },
    now,
  );
}
