import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Buyers' personal data (resolutions §10, issue 29; src/domain/personal-data/):
 * - sales_orders.closed_ts: when the order last became closed (nothing owed, no open return: status SHIPPED,
 *   RETURNED, REFUNDED or CANCELLED), kept by recomputeOrderStatus; null while open. The retention counts from
 *   it. Orders already closed get their last_updated_ts: never earlier than the real closing event, so no order
 *   is redacted before its time.
 * - sales_orders.personal_data_redacted_ts: when the personal data was cleared; null until then. It is also the
 *   sweep's checkpoint: a batch commits its orders' redaction and their stamp together.
 * - sales_orders_retention_due: the sweep's range (closed, not redacted, by closing time) as an index holding
 *   only those orders, so an hourly run reads the due orders, never the account's history.
 * - personal_data_erasures: open orders a buyer asked to erase, redacted once they close (durable across
 *   restarts). Keyed by order: no email is kept.
 * - personal_data_audit: who asked for what and how many orders it touched; never the personal data itself.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { idType, idColumn }: MigrationContext): Promise<void> {
  await db.schema.alterTable('sales_orders').addColumn('closed_ts', 'text').execute();
  await db.schema.alterTable('sales_orders').addColumn('personal_data_redacted_ts', 'text').execute();
  await db
    .updateTable('sales_orders')
    .set({ closed_ts: sql`last_updated_ts` })
    .where('status', 'in', ['SHIPPED', 'RETURNED', 'REFUNDED', 'CANCELLED'])
    .execute();
  await db.schema
    .createIndex('sales_orders_retention_due')
    .on('sales_orders')
    .columns(['account_id', 'closed_ts', 'id'])
    .where(sql<boolean>`personal_data_redacted_ts is null and closed_ts is not null`)
    .execute();
  await db.schema
    .createTable('personal_data_erasures')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('order_id', 'integer', (c) => c.notNull())
    .addColumn('requested_ts', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('personal_data_erasures_pk', ['account_id', 'order_id'])
    .execute();
  await db.schema
    .createTable('personal_data_audit')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('redacted_orders', 'integer', (c) => c.notNull())
    .addColumn('pending_orders', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('personal_data_audit_account').on('personal_data_audit').columns(['account_id', 'id']).execute();
}
