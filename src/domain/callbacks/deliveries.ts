import { cappedCount } from '../../db/capped-count.js';
import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { CallbackAttemptsTable, CallbackDeliveriesTable } from '../../db/schema.js';
import type { Db, Tx } from '../../db/tx.js';
import { enqueueJob } from '../../db/outbox.js';
import { conflict, notFound } from '../errors.js';
import type { CallbackMethod } from './transport.js';

/** The job type that makes one attempt of one delivery (src/jobs/handlers/deliver-callback.ts). */
export const DELIVER_CALLBACK = 'callbacks.deliver';

/**
 * Budget of the job itself, not of the delivery: a job is retried (job backoff) only when its worker dies
 * or the database fails mid-attempt; the delivery's own schedule (schedule.ts) enqueues a new job per retry.
 */
export const DELIVER_JOB_MAX_ATTEMPTS = 5;

export const CALLBACK_KINDS = ['INITIATE_INGESTION', 'STOREFRONT_STATUS', 'DELETE_CONFIGURATION', 'NUDGE'] as const;
export type CallbackKind = (typeof CALLBACK_KINDS)[number];
export const DELIVERY_STATES = ['PENDING', 'SUCCEEDED', 'DEAD'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface DeliverPayload {
  deliveryRowId: number;
}

export interface NewDelivery {
  accountId: number;
  appId: number;
  storefrontId: number | null;
  kind: CallbackKind;
  method: CallbackMethod;
  /** Relative to the app's callback base URL. */
  path: string;
  body: unknown;
  /**
   * Nudges only: while a delivery with this key is PENDING and unsent, this one replaces its body instead
   * of adding a delivery (see nudges.ts).
   */
  coalesceKey?: string;
}

export interface CreatedDelivery {
  rowId: number;
  deliveryId: string;
  /** False when the delivery coalesced into a pending one (its id and row are returned). */
  created: boolean;
}

/**
 * Writes the outbox row of one callback in the caller's transaction (the change that causes it), and its
 * first job unless `queue` is false (a synchronous call: the caller sends it after the commit). Nothing is
 * sent here: network I/O never runs inside a transaction.
 */
export async function createDelivery(tx: Db, input: NewDelivery, now: Date, queue = true): Promise<CreatedDelivery> {
  const iso = now.toISOString();
  const deliveryId = randomUUID();
  const row = await tx
    .insertInto('callback_deliveries')
    .values({
      delivery_id: deliveryId,
      account_id: input.accountId,
      app_id: input.appId,
      storefront_id: input.storefrontId,
      kind: input.kind,
      method: input.method,
      path: input.path,
      body: input.body === undefined || input.body === null ? null : JSON.stringify(input.body),
      state: 'PENDING',
      attempts: 0,
      round_start: 0,
      next_attempt_at: queue ? iso : null,
      current_job_id: null,
      last_status: null,
      last_error: null,
      created_at: iso,
      updated_at: iso,
      delivered_at: null,
      coalesce_key: input.coalesceKey ?? null,
    })
    // Only the partial unique index on coalesce_key can conflict (delivery_id is a fresh UUID). An upsert,
    // not a read-then-insert: two concurrent transactions coalesce instead of one failing.
    .onConflict((oc) =>
      oc
        .column('coalesce_key')
        .where('coalesce_key', 'is not', null)
        .doUpdateSet((eb) => ({ body: eb.ref('excluded.body'), updated_at: eb.ref('excluded.updated_at') })),
    )
    .returning(['id', 'delivery_id'])
    .executeTakeFirstOrThrow();
  const created = row.delivery_id === deliveryId;
  if (queue && created) await queueAttempt(tx, input.accountId, row.id, now);
  return { rowId: row.id, deliveryId: row.delivery_id, created };
}

/** Enqueues the job of the next attempt and makes it the only one allowed to send (current_job_id). */
export async function queueAttempt(tx: Db, accountId: number, rowId: number, runAt: Date): Promise<number> {
  const jobId = await enqueueJob(
    tx,
    { type: DELIVER_CALLBACK, payload: { deliveryRowId: rowId } satisfies DeliverPayload, accountId, runAt, maxAttempts: DELIVER_JOB_MAX_ATTEMPTS },
    runAt,
  );
  if (jobId === null) throw new Error('a callback delivery job was not enqueued');
  await tx.updateTable('callback_deliveries').set({ current_job_id: jobId }).where('account_id', '=', accountId).where('id', '=', rowId).execute();
  return jobId;
}

export interface DeliveryAttemptView {
  attempt: number;
  outcome: 'SUCCEEDED' | 'FAILED';
  url: string;
  httpStatus: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string;
  startedAt: string;
  finishedAt: string;
}

export interface DeliveryView {
  deliveryId: string;
  accountId: number;
  appId: number;
  storefrontId: number | null;
  kind: CallbackKind;
  method: CallbackMethod;
  path: string;
  body: unknown;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  deliveredAt: string | null;
}

export function toDeliveryView(row: Selectable<CallbackDeliveriesTable>): DeliveryView {
  return {
    deliveryId: row.delivery_id,
    accountId: row.account_id,
    appId: row.app_id,
    storefrontId: row.storefront_id,
    kind: row.kind as CallbackKind,
    method: row.method as CallbackMethod,
    path: row.path,
    body: row.body === null ? null : (JSON.parse(row.body) as unknown),
    state: row.state as DeliveryState,
    attempts: row.attempts,
    nextAttemptAt: row.state === 'PENDING' ? row.next_attempt_at : null,
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deliveredAt: row.delivered_at,
  };
}

function toAttemptView(row: Selectable<CallbackAttemptsTable>): DeliveryAttemptView {
  return {
    attempt: row.attempt,
    outcome: row.outcome as DeliveryAttemptView['outcome'],
    url: row.url,
    httpStatus: row.http_status,
    latencyMs: row.latency_ms,
    error: row.error,
    responseBody: row.response_body,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

export interface DeliveryFilters {
  accountId?: number;
  appId?: number;
  storefrontId?: number;
  state?: DeliveryState;
  kind?: CallbackKind;
}

export interface DeliveryPage {
  deliveries: DeliveryView[];
  /** Keyset position after the page's last row; null on the last page. */
  nextAfterRowId: number | null;
}

/** Newest first (by row id, which only grows), so a delivery created while paging is never skipped later. */
export async function listDeliveries(db: Db, filters: DeliveryFilters, afterRowId: number | null, pageSize: number): Promise<DeliveryPage> {
  let query = db.selectFrom('callback_deliveries').selectAll();
  if (filters.accountId !== undefined) query = query.where('account_id', '=', filters.accountId);
  if (filters.appId !== undefined) query = query.where('app_id', '=', filters.appId);
  if (filters.storefrontId !== undefined) query = query.where('storefront_id', '=', filters.storefrontId);
  if (filters.state !== undefined) query = query.where('state', '=', filters.state);
  if (filters.kind !== undefined) query = query.where('kind', '=', filters.kind);
  if (afterRowId !== null) query = query.where('id', '<', afterRowId);
  const rows = await query.orderBy('id', 'desc').limit(pageSize + 1).execute();
  const page = rows.slice(0, pageSize);
  return { deliveries: page.map(toDeliveryView), nextAfterRowId: rows.length > pageSize ? page[page.length - 1]!.id : null };
}

/** The account's deliveries that gave up (DEAD), for the console's home: a capped count on (account_id, state, id). */
export function countDeadDeliveries(db: Db, accountId: number): Promise<number> {
  return cappedCount(db, db.selectFrom('callback_deliveries').select('id').where('account_id', '=', accountId).where('state', '=', 'DEAD'));
}

/** Longer than the total send timeout (15 s): a synchronous call this old is no longer in flight. */
const ORPHAN_AFTER_MS = 60_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function findDelivery(db: Db, deliveryId: string): Promise<Selectable<CallbackDeliveriesTable>> {
  const row = UUID.test(deliveryId)
    ? await db.selectFrom('callback_deliveries').selectAll().where('delivery_id', '=', deliveryId.toLowerCase()).executeTakeFirst()
    : undefined;
  if (!row) throw notFound(`delivery ${deliveryId} not found`);
  return row;
}

export async function getDelivery(db: Db, deliveryId: string): Promise<DeliveryView & { attemptLog: DeliveryAttemptView[] }> {
  const row = await findDelivery(db, deliveryId);
  const attempts = await db
    .selectFrom('callback_attempts')
    .selectAll()
    .where('account_id', '=', row.account_id)
    .where('delivery_row_id', '=', row.id)
    .orderBy('id')
    .execute();
  return { ...toDeliveryView(row), attemptLog: attempts.map(toAttemptView) };
}

/**
 * Sends a DEAD or SUCCEEDED delivery again, with the same delivery id (receivers deduplicate on it): back to
 * PENDING, due now, with the whole retry schedule ahead of it. A PENDING one is already on its way: 409.
 */
export async function replayDelivery(tx: Tx, deliveryId: string, now: Date): Promise<DeliveryView> {
  const row = await findDelivery(tx, deliveryId);
  const iso = now.toISOString();
  const orphanedBefore = new Date(now.getTime() - ORPHAN_AFTER_MS).toISOString();
  const updated = await tx
    .updateTable('callback_deliveries')
    .set({ state: 'PENDING', round_start: row.attempts, next_attempt_at: iso, updated_at: iso })
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.id)
    .where((eb) =>
      eb.or([
        eb('state', 'in', ['DEAD', 'SUCCEEDED']),
        // A synchronous status check whose process died mid-call is PENDING with no job: once it is surely
        // over (older than the total timeout), it may be replayed rather than stay PENDING forever.
        eb.and([eb('state', '=', 'PENDING'), eb('current_job_id', 'is', null), eb('updated_at', '<', orphanedBefore)]),
      ]),
    )
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw conflict(`delivery ${deliveryId} is PENDING already: its next attempt is queued`);
  await queueAttempt(tx, row.account_id, row.id, now);
  return toDeliveryView(await findDelivery(tx, deliveryId));
}
