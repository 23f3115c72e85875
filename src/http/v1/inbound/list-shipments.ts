import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import type { Db } from '../../../db/tx.js';
import type { Principal } from '../../../domain/accounts/principal.js';
import { invalidField } from '../../../domain/errors.js';
import {
  checkVendorFilter,
  checkWarehouseFilter,
  listInboundShipments,
  statusFilter,
  type ShipmentKeyset,
  type ShipmentListFilter,
} from '../../../domain/inbound/list-shipments.js';
import { shipmentRecords } from '../../../domain/inbound/view.js';
import { decodeV1Token, v1Pagination } from '../../pagination.js';
import { integerListParam, listParam, optionalTimestampParam } from '../../params.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { InboundShipmentList } from '../../schemas/inbound.js';
import { ShipmentListQuery } from '../../schemas/inbound-queries.js';
import { nextTokenOverridesQuery } from '../next-token.js';
import { INBOUND_ROUTE_CONFIG, INBOUND_TAGS } from './route-config.js';

const ROUTE = '/v1/inbound-shipment';
const DEFAULT_PAGE_LENGTH = 25;

/** What a nextToken carries: the checked filters, the page length and the keyset position. */
interface ListToken {
  filter: ShipmentListFilter;
  pageLength: number;
  after: ShipmentKeyset;
}

const isStringOrNull = (v: unknown) => v === null || typeof v === 'string';
const isArrayOrNull = (v: unknown, item: (x: unknown) => boolean) => v === null || (Array.isArray(v) && v.every(item));

function isListToken(value: unknown): value is ListToken {
  const t = value as Partial<ListToken> | null;
  const f = t?.filter;
  const a = t?.after;
  return (
    typeof t?.pageLength === 'number' &&
    typeof f === 'object' &&
    f !== null &&
    isArrayOrNull(f.statuses, (s) => typeof s === 'string') &&
    isArrayOrNull(f.warehouseIds, (id) => Number.isSafeInteger(id)) &&
    (f.vendorId === null || Number.isSafeInteger(f.vendorId)) &&
    isStringOrNull(f.updatedFrom) &&
    isStringOrNull(f.purchaseOrderNumber) &&
    typeof a === 'object' &&
    a !== null &&
    typeof a.ts === 'string' &&
    typeof a.id === 'number'
  );
}

/** Reads and checks the first page's parameters; every later page reuses what its nextToken carries. */
async function filterFromQuery(db: Db, principal: Principal, query: ShipmentListQuery): Promise<ShipmentListFilter> {
  // What the query alone decides comes first, so a malformed request costs no database read.
  const statuses = statusFilter('status', listParam(query.status));
  const since = optionalTimestampParam('updatedSince', query.updatedSince);
  const alias = optionalTimestampParam('lastUpdatedTs', query.lastUpdatedTs);
  if (since && alias && since.getTime() !== alias.getTime()) {
    throw invalidField('lastUpdatedTs', 'is another name for updatedSince; give one of them (or the same instant in both)');
  }
  // Both names are accepted: `warehouseId` as the sales order list names it, `warehouses` as the inventory list does.
  const warehouseIds = [
    ...new Set([...integerListParam('warehouseId', query.warehouseId), ...integerListParam('warehouses', query.warehouses)]),
  ];
  if (warehouseIds.length > 0) await checkWarehouseFilter(db, principal, query.warehouseId !== undefined ? 'warehouseId' : 'warehouses', warehouseIds);
  if (query.vendorId !== undefined) await checkVendorFilter(db, principal, 'vendorId', query.vendorId);
  // Stored numbers are trimmed at create, so a filter is compared trimmed too.
  const purchaseOrderNumber = query.purchaseOrderNumber?.trim() ?? '';
  return {
    statuses,
    warehouseIds: warehouseIds.length > 0 ? warehouseIds : null,
    vendorId: query.vendorId ?? null,
    updatedFrom: (since ?? alias)?.toISOString() ?? null,
    purchaseOrderNumber: purchaseOrderNumber === '' ? null : purchaseOrderNumber,
  };
}

export function registerListShipments(app: App, deps: Deps) {
  app.get(
    ROUTE,
    {
      config: INBOUND_ROUTE_CONFIG,
      preValidation: nextTokenOverridesQuery,
      schema: {
        tags: INBOUND_TAGS,
        summary: 'List inbound shipments',
        description:
          'The records of GET /v1/inbound-shipment/{id} (document 4.3), least recently updated first (ties by id), so a ' +
          'sync with `updatedSince` sees every change at least once. Filters, all optional and combined: `status` ' +
          '(comma-separated and/or repeated; an unknown status is a 400 listing the allowed ones), `warehouseId` or ' +
          '`warehouses` (destination warehouse ids; an unknown one is a 400), `vendorId`, `updatedSince` (alias ' +
          '`lastUpdatedTs`; RFC 3339 with a zone, inclusive), `purchaseOrderNumber` (exact). An `inventory:self` token ' +
          'sees only shipments bound for its mapped warehouses (naming another warehouse is a 400): this is how an ' +
          'inventory or 3PL integration learns what is on its way to it.\n\n' +
          'Paging: `pageLength` 1..100 (default 25); `pagination.nextToken` is the absolute URL of the next page (GET it ' +
          'unchanged with the same access token; it overrides every other parameter, even an invalid one), "" on the last ' +
          'page; a changed or another access token\'s nextToken is a 400 invalid nextToken. A shipment updated while you ' +
          'page may appear again, never be skipped.',
        querystring: ShipmentListQuery,
        response: v1Responses({ 200: InboundShipmentList }, [400, 401, 403, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const db = deps.db.db;
      const { query } = request;
      const state: { filter: ShipmentListFilter; pageLength: number; after: ShipmentKeyset | null } =
        query.nextToken !== undefined && query.nextToken !== ''
          ? decodeV1Token(deps.signer, ROUTE, principal, query.nextToken, isListToken)
          : { filter: await filterFromQuery(db, principal, query), pageLength: query.pageLength ?? DEFAULT_PAGE_LENGTH, after: null };
      const page = await listInboundShipments(db, principal, state.filter, state.after, state.pageLength);
      const next: ListToken | null = page.next ? { filter: state.filter, pageLength: state.pageLength, after: page.next } : null;
      return {
        results: await shipmentRecords(db, principal, page.rows),
        pagination: v1Pagination(request, deps.signer, deps.config.publicBaseUrl, ROUTE, principal, next),
      };
    },
  );
}
