import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * need_to_ship pages through an integration's open fulfillment orders by id. Through
 * fulfillment_orders_queue (account, installation, id) a page first walks past every shipped, cancelled or
 * rejected order with a lower id, and a queue that has moved a few hundred thousand orders is mostly
 * those. This index holds the open ones only (the statuses as the query writes them, as literals, so both
 * databases can prove the query implies them), so a page reads about as many entries as it answers.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createIndex('fulfillment_orders_open_queue')
    .on('fulfillment_orders')
    .columns(['account_id', 'installation_id', 'id'])
    .where(sql.raw<boolean>(`status in ('NEW', 'ACCEPTED')`))
    .execute();
}
