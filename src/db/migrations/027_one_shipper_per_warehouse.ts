import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * One shipping/3PL integration per warehouse (resolutions §6, third review; issue 23).
 *
 * - warehouse_mappings.fulfills: 1 while the mapping's installation is an ACTIVE SHIPPING or
 *   THIRD_PARTY_LOGISTICS one (set on install or map, cleared on uninstall), so that one partial unique
 *   index, warehouse_mappings_one_fulfiller, holds the rule on both databases: of two parallel mappings of a
 *   warehouse, one commits and the other finds the index taken.
 * - Warehouses that already have several: the oldest active mapping (lowest installation id: the one the
 *   service has given that warehouse's fulfillment orders to all along) stays; the others are removed and each
 *   doubled warehouse is reported in the operator log. The removed installations never owed work there, since
 *   the older one was active since before they existed, so nothing is pulled back.
 * - fulfillment_orders: when a warehouse's integration is unmapped or uninstalled its open fulfillment orders
 *   there become WITHDRAWN, and the next integration mapped gets the units as NEW fulfillment orders of the
 *   same (order, warehouse). "One fulfillment order per (order, warehouse)" therefore holds for live ones
 *   only: the unique index becomes partial, and a plain one keeps serving lookups by order and warehouse.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { log }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('warehouse_mappings')
    .addColumn('fulfills', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .updateTable('warehouse_mappings')
    .set({ fulfills: 1 })
    .where(
      'installation_id',
      'in',
      db.selectFrom('installations').select('id').where('status', '=', 'ACTIVE').where('kind', 'in', ['SHIPPING', 'THIRD_PARTY_LOGISTICS']),
    )
    .execute();

  const doubled = await db
    .selectFrom('warehouse_mappings as m')
    .innerJoin('installations as i', 'i.id', 'm.installation_id')
    .innerJoin('apps as a', 'a.id', 'i.app_id')
    .select(['m.account_id', 'm.warehouse_id', 'm.installation_id', 'm.warehouse_unique_id', 'i.kind', 'a.name as app_name'])
    .where('m.fulfills', '=', 1)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('warehouse_mappings as other')
          .select('other.installation_id')
          .whereRef('other.account_id', '=', 'm.account_id')
          .whereRef('other.warehouse_id', '=', 'm.warehouse_id')
          .whereRef('other.installation_id', '<>', 'm.installation_id')
          .where('other.fulfills', '=', 1),
      ),
    )
    .orderBy('m.account_id')
    .orderBy('m.warehouse_id')
    .orderBy('m.installation_id')
    .execute();
  const byWarehouse = new Map<string, typeof doubled>();
  for (const row of doubled) {
    const key = `${row.account_id}:${row.warehouse_id}`;
    byWarehouse.set(key, [...(byWarehouse.get(key) ?? []), row]);
  }
  for (const [kept, ...removed] of byWarehouse.values()) {
    if (!kept) continue;
    for (const r of removed) {
      await db
        .deleteFrom('warehouse_mappings')
        .where('account_id', '=', r.account_id)
        .where('installation_id', '=', r.installation_id)
        .where('warehouse_id', '=', r.warehouse_id)
        .execute();
    }
    const describe = (r: (typeof doubled)[number]) => ({
      installationId: r.installation_id,
      appName: r.app_name,
      kind: r.kind,
      warehouseUniqueId: r.warehouse_unique_id,
    });
    log.warn(
      { migration: '027_one_shipper_per_warehouse', accountId: kept.account_id, warehouseId: kept.warehouse_id, kept: describe(kept), unmapped: removed.map(describe) },
      `warehouse ${kept.warehouse_id} of account ${kept.account_id} had ${removed.length + 1} shipping/3PL integrations; ` +
        `kept installation ${kept.installation_id} (${kept.app_name}), the oldest, and unmapped ` +
        removed.map((r) => `installation ${r.installation_id} (${r.app_name})`).join(', '),
    );
  }

  await db.schema
    .createIndex('warehouse_mappings_one_fulfiller')
    .on('warehouse_mappings')
    .columns(['account_id', 'warehouse_id'])
    .unique()
    // A literal, as the inserts' ON CONFLICT target writes it: both databases match the predicate textually.
    .where(sql.raw<boolean>('fulfills = 1'))
    .execute();

  await db.schema
    .createIndex('fulfillment_orders_live_order_warehouse')
    .on('fulfillment_orders')
    .columns(['account_id', 'order_id', 'warehouse_id'])
    .unique()
    .where(sql.raw<boolean>(`status <> 'WITHDRAWN'`))
    .execute();
  await db.schema.dropIndex('fulfillment_orders_order_warehouse').execute();
  await db.schema
    .createIndex('fulfillment_orders_order_warehouse')
    .on('fulfillment_orders')
    .columns(['account_id', 'order_id', 'warehouse_id'])
    .execute();
}
