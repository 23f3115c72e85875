import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Callbacks to partners (document 5.5, 6.1; resolutions §5, §8; issue 11):
 * - callback_deliveries: one row per event, written in the transaction that causes it (the outbox, with its
 *   first job in `jobs`). `delivery_id` is the public id sent as X-Service-Delivery-Id, stable across retries
 *   and replays. `path` is relative to the app's callback base URL (joined at send time, the base's path
 *   prefix kept), so a corrected base URL applies to the next attempt. `current_job_id` names the one job
 *   allowed to send it: a stale job (a replaced schedule) finds another id and does nothing.
 * - callback_attempts: every attempt (time, status, latency, error, response body capped).
 * - storefront_status_checks: the last `checks[]` a storefront's partner answered, with its time.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { idType, idColumn }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('callback_deliveries')
    .addColumn('id', idType, idColumn)
    .addColumn('delivery_id', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id'))
    .addColumn('storefront_id', 'integer')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    // attempts already made when the current round began (creation: 0; a replay: the count then), so a
    // replay runs the whole retry schedule again while the attempt numbers keep counting.
    .addColumn('round_start', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('current_job_id', 'integer')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .execute();
  // The delivery log pages newest first by id, narrowed by account, app or state.
  await db.schema.createIndex('callback_deliveries_account').on('callback_deliveries').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('callback_deliveries_app').on('callback_deliveries').columns(['app_id', 'id']).execute();
  await db.schema.createIndex('callback_deliveries_state').on('callback_deliveries').columns(['state', 'id']).execute();

  await db.schema
    .createTable('callback_attempts')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('delivery_row_id', 'integer', (c) => c.notNull().references('callback_deliveries.id'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('callback_attempts_delivery').on('callback_attempts').columns(['delivery_row_id', 'id']).execute();

  await db.schema
    .createTable('storefront_status_checks')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('storefront_id', 'integer', (c) => c.notNull())
    .addColumn('checks', 'text', (c) => c.notNull())
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('storefront_status_checks_pk', ['account_id', 'storefront_id'])
    .execute();
}
