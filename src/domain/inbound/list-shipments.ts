import type { Db } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { listAccountWarehouses } from '../accounts/warehouses.js';
import { invalidField } from '../errors.js';
import { inboundWarehouseNarrowing } from './access.js';
import { INBOUND_STATUSES, type InboundShipmentRow, type InboundStatus } from './model.js';

/**
 * GET /v1/inbound-shipment (document 4.3; resolutions §1, §8): the account's shipments, least recently
 * updated first, so a client syncing with `updatedSince` (an inclusive bound) sees every change at least once.
 */

/** Keyset position: the last (updated_at, id) of the previous page. */
export interface ShipmentKeyset {
  ts: string;
  id: number;
}

/** Filters, already checked; null means "not filtered". A v1 nextToken carries them as they are. */
export interface ShipmentListFilter {
  statuses: InboundStatus[] | null;
  warehouseIds: number[] | null;
  vendorId: number | null;
  /** ISO instant; shipments updated at or after it. */
  updatedFrom: string | null;
  purchaseOrderNumber: string | null;
}

/** The status filter: every value must be a known status (a 400 lists the allowed ones). */
export function statusFilter(field: string, values: string[]): InboundStatus[] | null {
  if (values.length === 0) return null;
  const unknown = values.filter((v) => !(INBOUND_STATUSES as readonly string[]).includes(v));
  if (unknown.length > 0) {
    const named = unknown.map((v) => `"${v}"`).join(', ');
    throw invalidField(field, `${named} ${unknown.length > 1 ? 'are not statuses' : 'is not a status'}; allowed: ${INBOUND_STATUSES.join(', ')}`);
  }
  return [...new Set(values as InboundStatus[])];
}

/**
 * Warehouse ids are filter values, not the resource the URL names: an unknown one (another account's
 * included, so nothing is revealed) is a 400 rather than an empty page, like GET /v1/inventory. An
 * inventory:self token naming a warehouse outside its mappings is told so rather than answered "nothing".
 */
export async function checkWarehouseFilter(db: Db, principal: Principal, field: string, ids: number[]): Promise<void> {
  const known = new Set((await listAccountWarehouses(db, principal.accountId)).map((w) => w.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) throw invalidField(field, `unknown warehouse id${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`);
  const narrowing = inboundWarehouseNarrowing(principal);
  const hidden = narrowing === null ? [] : ids.filter((id) => !narrowing.includes(id));
  if (hidden.length > 0) {
    throw invalidField(
      field,
      `warehouse${hidden.length > 1 ? 's' : ''} ${hidden.join(', ')} ${hidden.length > 1 ? 'are' : 'is'} not mapped to this token's integration (scope inventory:self)`,
    );
  }
}

/** A vendor filter names a vendor of the account (archived ones too); another account's is unknown. */
export async function checkVendorFilter(db: Db, principal: Principal, field: string, vendorId: number): Promise<void> {
  const row = await db.selectFrom('vendors').select('id').where('account_id', '=', principal.accountId).where('id', '=', vendorId).executeTakeFirst();
  if (!row) throw invalidField(field, `vendor ${vendorId} not found in this account`);
}

/** One page, oldest update first (ties by id); `next` is set when another page follows. */
export async function listInboundShipments(
  db: Db,
  principal: Principal,
  filter: ShipmentListFilter,
  after: ShipmentKeyset | null,
  pageLength: number,
): Promise<{ rows: InboundShipmentRow[]; next: ShipmentKeyset | null }> {
  // The narrowing applies on every page, not only when the filter was checked: the installation's
  // mappings may change between two pages of one nextToken chain.
  const narrowing = inboundWarehouseNarrowing(principal);
  let warehouses = filter.warehouseIds;
  if (narrowing !== null) warehouses = warehouses === null ? narrowing : warehouses.filter((id) => narrowing.includes(id));
  if (warehouses !== null && warehouses.length === 0) return { rows: [], next: null };

  let query = db.selectFrom('inbound_shipments').selectAll().where('account_id', '=', principal.accountId);
  if (warehouses !== null) query = query.where('warehouse_id', 'in', warehouses);
  if (filter.statuses !== null) query = query.where('status', 'in', filter.statuses);
  if (filter.vendorId !== null) query = query.where('vendor_id', '=', filter.vendorId);
  if (filter.purchaseOrderNumber !== null) query = query.where('purchase_order_number', '=', filter.purchaseOrderNumber);
  if (filter.updatedFrom !== null) query = query.where('updated_at', '>=', filter.updatedFrom);
  if (after) {
    query = query.where((eb) => eb.or([eb('updated_at', '>', after.ts), eb.and([eb('updated_at', '=', after.ts), eb('id', '>', after.id)])]));
  }
  const rows = await query.orderBy('updated_at').orderBy('id').limit(pageLength + 1).execute();
  const page = rows.slice(0, pageLength);
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > pageLength && last ? { ts: last.updated_at, id: last.id } : null };
}
