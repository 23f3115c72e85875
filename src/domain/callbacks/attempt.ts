import type { Selectable } from 'kysely';
import type { CallbackDeliveriesTable } from '../../db/schema.js';
import { withTx, type Tx } from '../../db/tx.js';
import { backgroundTurns } from '../../lib/shared-turn.js';
import { callbackTargetOf, joinCallbackUrl } from './secrets.js';
import { MAX_DELIVERY_ATTEMPTS, nextRetryDelaySeconds } from './schedule.js';
import { DEFAULT_SEND_OPTIONS } from './send.js';
import { parseStatusChecks, saveStatusChecks, type StatusCheck } from './status-checks.js';
import { queueAttempt, type DeliveryState } from './deliveries.js';
import type { CallbackMethod, CallbackOutcome } from './transport.js';
import type { DeliveryPorts } from './ports.js';

/** Longest error text kept on a delivery or an attempt. */
const MAX_ERROR_LENGTH = 2000;

export interface AttemptResult {
  /** Null when the attempt was not made (stale job, delivery no longer PENDING). */
  state: DeliveryState | null;
  outcome: CallbackOutcome | null;
  /** STOREFRONT_STATUS answered with checks. */
  checks?: StatusCheck[];
  checkedAt?: string;
}

class LostRace extends Error {}

/**
 * Makes one attempt of a PENDING delivery: reads it, sends it OUTSIDE any transaction, then records the
 * attempt and the delivery's next state in one transaction, conditional on the delivery being unchanged
 * meanwhile. `jobId` is the job making the attempt (null for the synchronous status check): only the
 * delivery's current job may send, so a stale job is a no-op. `retry` false (synchronous calls) ends a
 * failed delivery DEAD at once instead of scheduling the next try. `alsoIn` runs in the recording
 * transaction (the job's own completion, so both commit together).
 */
export async function attemptDelivery(
  deps: DeliveryPorts,
  accountId: number,
  rowId: number,
  jobId: number | null,
  retry = true,
  alsoIn?: (tx: Tx) => Promise<void>,
): Promise<AttemptResult> {
  const db = deps.db.db;
  let row = await db.selectFrom('callback_deliveries').selectAll().where('account_id', '=', accountId).where('id', '=', rowId).executeTakeFirst();
  if (!row || row.state !== 'PENDING' || row.current_job_id !== jobId) return { state: null, outcome: null };
  if (row.coalesce_key !== null) {
    // A nudge stops coalescing before it is sent, and its body is read after that: an event committed
    // later gets a delivery of its own, so no version is lost to a send already under way.
    // One statement: the row as it is once coalescing stopped (still this job's and PENDING, or nothing to send).
    row = await db
      .updateTable('callback_deliveries')
      .set({ coalesce_key: null })
      .where('account_id', '=', accountId)
      .where('id', '=', rowId)
      .where('state', '=', 'PENDING')
      .where((eb) => (jobId === null ? eb('current_job_id', 'is', null) : eb('current_job_id', '=', jobId)))
      .returningAll()
      .executeTakeFirst();
    if (!row) return { state: null, outcome: null };
  }

  const startedAt = deps.clock.now();
  const target = await callbackTargetOf(db, deps.signer, row.app_id, startedAt);
  let url = '';
  let outcome: CallbackOutcome;
  if (!target?.baseUrl) {
    outcome = { ok: false, status: null, latencyMs: 0, body: '', error: 'the app has no callback base URL', retryAfterSeconds: null, refused: false };
  } else {
    url = joinCallbackUrl(target.baseUrl, row.path);
    outcome = await deps.send(
      { method: row.method as CallbackMethod, url, body: row.body === null ? null : Buffer.from(row.body, 'utf8'), deliveryId: row.delivery_id, signingSecrets: target.secrets },
      { ...DEFAULT_SEND_OPTIONS, allowPrivate: deps.config.callbacksAllowPrivate, now: startedAt },
    );
  }
  // The partner's answer resumes this job in whatever turn it arrives; recording it waits for the lanes'
  // shared allowance (a synchronous status check, jobId null, is a request's own work and does not wait).
  if (jobId !== null) await backgroundTurns.take();
  let checks: StatusCheck[] | undefined;
  if (outcome.ok && row.kind === 'STOREFRONT_STATUS') {
    const parsed = parseStatusChecks(outcome.body);
    if (parsed === null) outcome = { ...outcome, ok: false, error: 'HTTP 200 without a checks list (document 2.20)' };
    else checks = parsed;
  }
  const finishedAt = deps.clock.now();
  try {
    const state = await withTx(db, async (tx) => {
      const recorded = await recordAttempt(tx, row, jobId, url, outcome, startedAt, finishedAt, retry, checks);
      await alsoIn?.(tx);
      return recorded;
    });
    return checks ? { state, outcome, checks, checkedAt: finishedAt.toISOString() } : { state, outcome };
  } catch (error) {
    if (error instanceof LostRace) return { state: null, outcome };
    throw error;
  }
}

async function recordAttempt(
  tx: Tx,
  row: Selectable<CallbackDeliveriesTable>,
  jobId: number | null,
  url: string,
  outcome: CallbackOutcome,
  startedAt: Date,
  finishedAt: Date,
  retry: boolean,
  checks: StatusCheck[] | undefined,
): Promise<DeliveryState> {
  const iso = finishedAt.toISOString();
  const attempt = row.attempts + 1;
  const error = outcome.error === null ? null : outcome.error.slice(0, MAX_ERROR_LENGTH);
  let state: DeliveryState;
  let nextAt: Date | null = null;
  if (outcome.ok) state = 'SUCCEEDED';
  else {
    // A refused target (not https, non-public address) will not get better by waiting: dead at once.
    const delay = retry && !outcome.refused ? nextRetryDelaySeconds(attempt - row.round_start, outcome.retryAfterSeconds) : null;
    if (delay === null || attempt >= row.round_start + MAX_DELIVERY_ATTEMPTS) state = 'DEAD';
    else {
      state = 'PENDING';
      nextAt = new Date(finishedAt.getTime() + delay * 1000);
    }
  }
  const updated = await tx
    .updateTable('callback_deliveries')
    .set({
      state,
      attempts: attempt,
      next_attempt_at: nextAt?.toISOString() ?? null,
      current_job_id: null,
      last_status: outcome.status,
      last_error: outcome.ok ? null : error,
      updated_at: iso,
      ...(outcome.ok ? { delivered_at: iso } : {}),
    })
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.id)
    .where('state', '=', 'PENDING')
    .where('attempts', '=', row.attempts)
    .where((eb) => (jobId === null ? eb('current_job_id', 'is', null) : eb('current_job_id', '=', jobId)))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new LostRace();
  await tx
    .insertInto('callback_attempts')
    .values({
      account_id: row.account_id,
      delivery_row_id: row.id,
      attempt,
      outcome: outcome.ok ? 'SUCCEEDED' : 'FAILED',
      url,
      http_status: outcome.status,
      latency_ms: outcome.latencyMs,
      error,
      response_body: outcome.body,
      started_at: startedAt.toISOString(),
      finished_at: iso,
    })
    .execute();
  if (nextAt) await queueAttempt(tx, row.account_id, row.id, nextAt);
  if (checks && row.storefront_id !== null) await saveStatusChecks(tx, row.account_id, row.storefront_id, checks, iso, row.delivery_id);
  return state;
}

/**
 * The delivery's job died (its worker was killed on every try, or the database kept failing): the delivery
 * ends DEAD with the reason, so it shows in the log and can be replayed, instead of PENDING forever.
 */
export async function deliveryJobDead(deps: Pick<DeliveryPorts, 'db' | 'clock'>, accountId: number, rowId: number, jobId: number, error: string): Promise<void> {
  const iso = deps.clock.now().toISOString();
  await deps.db.db
    .updateTable('callback_deliveries')
    .set({ state: 'DEAD', current_job_id: null, next_attempt_at: null, coalesce_key: null, last_error: `the delivery job failed: ${error}`.slice(0, MAX_ERROR_LENGTH), updated_at: iso })
    .where('account_id', '=', accountId)
    .where('id', '=', rowId)
    .where('state', '=', 'PENDING')
    .where('current_job_id', '=', jobId)
    .execute();
}
