import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * A sales order line's `title` as the channel sent it on create (document 2.10 lists it beside
 * requestedTitle). Null when not sent: the line then shows the catalog product's title (resolutions §7).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('sales_order_lines').addColumn('title', 'text').execute();
}
