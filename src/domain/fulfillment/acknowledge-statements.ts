import { sql, type CompiledQuery, type Expression, type SqlBool } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import type { Tx } from '../../db/tx.js';
import { fixedText } from '../../db/fast-paths.js';
import type { Principal } from '../accounts/principal.js';
import { callerWarehouseIds } from './access.js';

/**
 * The statements of an acknowledge call (acknowledge.ts), each one for the whole call whatever its number of
 * entries. On PostgreSQL the lists go as array parameters, so each statement's text is the same for any call and
 * runs as a named prepared statement; on SQLite (no arrays) as IN lists and VALUES rows, one text per length,
 * which its statement cache keeps.
 */

/** A named fulfillment order as acknowledging reads it: its state and the units still owed on it. */
export interface AcknowledgeRow {
  id: number;
  account_id: number;
  installation_id: number;
  status: string;
  external_order_id: string | null;
  /** Reserved and backordered units of its routes (routeTotals' owed), read in the same statement. */
  owed: number;
}

/** One fulfillment order to move NEW → ACCEPTED with this externalOrderId. */
export interface AcknowledgeWrite {
  id: number;
  externalOrderId: string;
}

/** `column = any(array)` on PostgreSQL, `column in (…)` on SQLite. */
function inList(tx: Tx, column: string, values: readonly (number | string)[], type: 'bigint' | 'text'): Expression<SqlBool> {
  if (isPostgres(tx)) return sql<SqlBool>`${sql.ref(column)} = any(${values}::${sql.raw(type)}[])`;
  // SQLite takes an empty IN list (it matches nothing), as the array form does.
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(values.map((v) => sql`${v}`))})`;
}

/**
 * The named fulfillment orders the caller owns (the rule of findOwnFulfillmentOrder: same account, owed by its
 * integration, in one of its mapped warehouses or WITHDRAWN), each with its owed units. On PostgreSQL the rows are
 * locked in id order, so their state holds until the call commits and parallel calls naming the same orders queue
 * in one order instead of deadlocking; SQLite runs one writer at a time.
 */
export function readOwnForAcknowledge(tx: Tx, principal: Principal & { integrationId: number }, ids: readonly number[]): CompiledQuery<AcknowledgeRow> {
  const warehouses = callerWarehouseIds(principal);
  const query = tx
    .selectFrom('fulfillment_orders as fo')
    .select(['fo.id', 'fo.account_id', 'fo.installation_id', 'fo.status', 'fo.external_order_id'])
    .select((eb) =>
      eb
        .selectFrom('order_line_routes as r')
        .select(sql<number>`coalesce(sum(r.reserved_quantity + r.backorder_quantity), 0)`.as('owed'))
        .whereRef('r.account_id', '=', 'fo.account_id')
        .whereRef('r.order_id', '=', 'fo.order_id')
        .whereRef('r.warehouse_id', '=', 'fo.warehouse_id')
        .$castTo<number>()
        .as('owed'),
    )
    .where('fo.account_id', '=', principal.accountId)
    .where('fo.installation_id', '=', principal.integrationId)
    .where(inList(tx, 'fo.id', ids, 'bigint'))
    .where((eb) => eb.or([inList(tx, 'fo.warehouse_id', warehouses, 'bigint'), eb('fo.status', '=', 'WITHDRAWN')]))
    .orderBy('fo.id')
    .$if(isPostgres(tx), (q) => q.forUpdate('fo'))
    .compile();
  return fixedText(tx, query);
}

/**
 * Which of the integration's fulfillment orders hold these externalOrderIds (any state: the unique index
 * fulfillment_orders_external counts them all).
 */
export function readExternalIdsInUse(
  tx: Tx,
  principal: Principal & { integrationId: number },
  externalOrderIds: readonly string[],
): CompiledQuery<{ id: number; external_order_id: string | null }> {
  const query = tx
    .selectFrom('fulfillment_orders')
    .select(['id', 'external_order_id'])
    .where('account_id', '=', principal.accountId)
    .where('installation_id', '=', principal.integrationId)
    .where(inList(tx, 'external_order_id', externalOrderIds, 'text'))
    .compile();
  return fixedText(tx, query);
}

/**
 * One UPDATE … FROM for every fulfillment order acknowledged: NEW → ACCEPTED with its externalOrderId and both
 * timestamps at `iso`. Still conditional on NEW, so a row somehow not NEW any more is never overwritten.
 */
export function acknowledgeRows(tx: Tx, accountId: number, writes: readonly AcknowledgeWrite[], iso: string): CompiledQuery {
  const rows = isPostgres(tx)
    ? sql`(select * from unnest(${writes.map((w) => w.id)}::bigint[], ${writes.map((w) => w.externalOrderId)}::text[]))`
    : sql`(values ${sql.join(writes.map((w) => sql`(cast(${w.id} as integer), cast(${w.externalOrderId} as text))`))})`;
  const query = tx
    .with('v(id, external_order_id)', () => sql<{ id: number; external_order_id: string }>`${rows}`)
    .updateTable('fulfillment_orders')
    .from('v')
    .set({ status: 'ACCEPTED', external_order_id: sql.ref<string>('v.external_order_id'), acknowledged_ts: iso, last_updated_ts: iso })
    .where('fulfillment_orders.account_id', '=', accountId)
    .whereRef('fulfillment_orders.id', '=', 'v.id')
    .where('fulfillment_orders.status', '=', 'NEW')
    .compile();
  return fixedText(tx, query);
}
