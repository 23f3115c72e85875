import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Extension nudges (issue 11 item 5, docs/partners/callback-nudges.md):
 * - app_event_subscriptions: the event types an app subscribed to (PATCH /admin/apps/{appId} eventTypes).
 *   Looked up by (app, type) when an event happens, so the primary key serves the emission path.
 * - callback_deliveries.coalesce_key: set on a NUDGE while it is PENDING and not yet sent. The partial unique
 *   index lets a burst of events for one object upsert a single row (ON CONFLICT ... DO UPDATE), which does
 *   not abort a PostgreSQL transaction the way a plain unique violation would.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('app_event_subscriptions')
    .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('app_event_subscriptions_pk', ['app_id', 'event_type'])
    .execute();
  // The emission path looks subscribers up by event type first (then joins the account's installations).
  await db.schema.createIndex('app_event_subscriptions_type').on('app_event_subscriptions').columns(['event_type', 'app_id']).execute();
  await db.schema.alterTable('callback_deliveries').addColumn('coalesce_key', 'text').execute();
  await db.schema
    .createIndex('callback_deliveries_coalesce')
    .on('callback_deliveries')
    .column('coalesce_key')
    .unique()
    .where(sql<boolean>`coalesce_key is not null`)
    .execute();
}
