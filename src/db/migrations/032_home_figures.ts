import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * The seller's home figures (issue 24 item 6, src/domain/orders/home-figures.ts): each count is a capped range
 * read on a partial index that holds only the rows it counts, so it costs the same however large the account:
 * - sales_order_lines_past_ship_by: lines still owing units (neither shipped nor cancelled) that carry a ship-by
 *   date, by that date: "late" reads the range before now;
 * - sales_order_returns_open: returns neither cancelled nor closed (to receive, or received and to close);
 * - jobs_account_dead: an account's jobs that gave up (DEAD), a handful beside the jobs the workers churn.
 * The conditions are literals, as the queries write them, so SQLite can prove a query implies its index's.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createIndex('sales_order_lines_past_ship_by')
    .on('sales_order_lines')
    .columns(['account_id', 'latest_ship_by', 'order_id'])
    .where(sql<boolean>`latest_ship_by is not null and quantity > cancel_quantity + shipped_quantity`)
    .execute();
  await db.schema
    .createIndex('sales_order_returns_open')
    .on('sales_order_returns')
    .columns(['account_id', 'order_id'])
    .where(sql<boolean>`cancelled = 0 and closed_ts is null`)
    .execute();
  await db.schema
    .createIndex('jobs_account_dead')
    .on('jobs')
    .columns(['account_id', 'id'])
    .where(sql<boolean>`status = 'DEAD'`)
    .execute();
}
