import type { Db } from '../../db/tx.js';
import { withTx } from '../../db/tx.js';
import { nextTurn } from '../../lib/next-turn.js';
import { recordPersonalDataAudit } from './audit.js';
import { redactOrders } from './redact.js';

/**
 * Orders per transaction, then the event loop gets a turn. On SQLite a batch runs on the loop: 25 orders (with
 * their lines, packages and search words) hold it ~6 ms at 100,000 orders (bench:personal-data); the cost grows
 * with the batch, and /healthz answers within 100 ms with room to spare.
 */
export const REDACTION_BATCH = 25;
const DAY_MS = 86_400_000;
const SWEEPER = 'retention-sweep';

export interface PersonalDataSweepOptions {
  batchSize?: number;
  /** Called before each batch's transaction (tests simulate a crash between batches with it). */
  beforeBatch?: (batch: number) => void | Promise<void>;
  /**
   * Awaited after each batch's commit, before the event loop's turn: the job passes DbHandle.relieveWal, so a
   * long sweep on SQLite waits for the checkpoint thread instead of letting the WAL reach the backstop, whose
   * checkpoint would run inside some COMMIT on the event loop (~90 ms at 100,000 orders, bench:personal-data).
   */
  afterBatch?: () => Promise<void>;
}

export interface PersonalDataSweepResult {
  /** Orders redacted because their closing event is older than the account's retention. */
  expired: number;
  /** Open orders a buyer asked to erase, redacted now that they closed. */
  erased: number;
}

/**
 * The retention sweep (resolutions §10): for every account with a retention, redacts the closed orders whose
 * closing event (closed_ts) is older than personalDataRetentionDays, then the orders of pending erasure
 * requests that have closed since. Batches of REDACTION_BATCH orders, each its own transaction that redacts
 * the orders, stamps personal_data_redacted_ts and writes an audit entry together: the stamp is the
 * checkpoint, so a sweep killed mid-way resumes where it stopped and redacts every order exactly once (the
 * next batch's query no longer finds the stamped orders). Reads only the sales_orders_retention_due index
 * range and personal_data_erasures, never the account's history.
 */
export async function sweepPersonalData(db: Db, now: Date, options: PersonalDataSweepOptions = {}): Promise<PersonalDataSweepResult> {
  const size = options.batchSize ?? REDACTION_BATCH;
  const result: PersonalDataSweepResult = { expired: 0, erased: 0 };
  let batch = 0;
  const runBatch = async (accountId: number, ids: number[], into: keyof PersonalDataSweepResult) => {
    await options.beforeBatch?.(batch++);
    const redacted = await withTx(db, async (tx) => {
      const done = await redactOrders(tx, accountId, ids, now);
      if (done.length > 0) {
        await recordPersonalDataAudit(tx, { accountId, action: 'RETENTION_SWEEP', requestedBy: SWEEPER, redactedOrders: done.length, pendingOrders: 0 }, now);
      }
      return done.length;
    });
    result[into] += redacted;
    await options.afterBatch?.();
    await nextTurn();
  };

  let afterAccount = 0;
  for (;;) {
    const accounts = await db
      .selectFrom('accounts')
      .select(['id', 'personal_data_retention_days'])
      .where('id', '>', afterAccount)
      .where('personal_data_retention_days', 'is not', null)
      .orderBy('id')
      .limit(100)
      .execute();
    for (const account of accounts) {
      const cutoff = new Date(now.getTime() - account.personal_data_retention_days! * DAY_MS).toISOString();
      for (;;) {
        const due = await db
          .selectFrom('sales_orders')
          .select('id')
          .where('account_id', '=', account.id)
          .where('personal_data_redacted_ts', 'is', null)
          .where('closed_ts', 'is not', null)
          .where('closed_ts', '<', cutoff)
          .orderBy('closed_ts')
          .orderBy('id')
          .limit(size)
          .execute();
        if (due.length > 0) await runBatch(account.id, due.map((o) => o.id), 'expired');
        if (due.length < size) break;
      }
    }
    if (accounts.length < 100) break;
    afterAccount = accounts[accounts.length - 1]!.id;
  }

  // Erasure requests of orders that were open: redacted once closed, whatever the account's retention.
  let afterKey: [number, number] = [0, 0];
  for (;;) {
    const [a, o] = afterKey;
    const closed = await db
      .selectFrom('personal_data_erasures as e')
      .innerJoin('sales_orders as s', (j) => j.onRef('s.account_id', '=', 'e.account_id').onRef('s.id', '=', 'e.order_id'))
      .select(['e.account_id', 'e.order_id', 's.closed_ts'])
      .where((eb) => eb.or([eb('e.account_id', '>', a), eb.and([eb('e.account_id', '=', a), eb('e.order_id', '>', o)])]))
      .orderBy('e.account_id')
      .orderBy('e.order_id')
      .limit(size)
      .execute();
    if (closed.length === 0) break;
    const last = closed[closed.length - 1]!;
    afterKey = [last.account_id, last.order_id];
    const byAccount = new Map<number, number[]>();
    for (const row of closed) {
      if (row.closed_ts === null) continue;
      const list = byAccount.get(row.account_id) ?? [];
      list.push(row.order_id);
      byAccount.set(row.account_id, list);
    }
    for (const [accountId, ids] of byAccount) await runBatch(accountId, ids, 'erased');
    if (closed.length < size) break;
  }
  return result;
}
