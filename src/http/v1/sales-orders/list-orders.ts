import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import type { Principal } from '../../../domain/accounts/principal.js';
import { invalidField } from '../../../domain/errors.js';
import { listSalesOrders, oneYearBefore, type OrderKeyset, type OrderListFilter } from '../../../domain/orders/list-orders.js';
import { ORDER_STATUSES, ORDER_STATUS_ALIASES, type OrderStatus } from '../../../domain/orders/model.js';
import { decodeV1Token, v1Pagination } from '../../pagination.js';
import { listParam, optionalTimestampParam } from '../../params.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { SalesOrderListQuery, SalesOrderListV1 } from '../../schemas/sales-orders-v1.js';
import { nextTokenOverridesQuery } from '../next-token.js';
import { V1_SALES_ORDER_ROUTE_CONFIG } from './route-config.js';

const ROUTE = '/v1/salesOrder';
const DEFAULT_PAGE_LENGTH = 25;

/** What a nextToken carries: the filters and page length, and the keyset position (its caller is in the signature). */
interface ListToken {
  filter: OrderListFilter;
  pageLength: number;
  after: OrderKeyset;
}

const isStringOrNull = (v: unknown) => v === null || typeof v === 'string';
const isStringArrayOrNull = (v: unknown) => v === null || (Array.isArray(v) && v.every((s) => typeof s === 'string'));

function isListToken(value: unknown): value is ListToken {
  const t = value as Partial<ListToken> | null;
  const f = t?.filter;
  const a = t?.after;
  return (
    typeof t?.pageLength === 'number' &&
    typeof f === 'object' &&
    f !== null &&
    isStringOrNull(f.updatedFrom) &&
    isStringOrNull(f.orderedFrom) &&
    isStringOrNull(f.windowStart) &&
    isStringArrayOrNull(f.statuses) &&
    isStringArrayOrNull(f.channelOrderIds) &&
    (f.warehouseId === null || Number.isSafeInteger(f.warehouseId)) &&
    typeof a === 'object' &&
    a !== null &&
    typeof a.ts === 'string' &&
    typeof a.id === 'number'
  );
}

/** Order statuses from the filter; the public guides' CANCELED / PARTIALLY_CANCELLED mean CANCELLED. */
function statusFilter(value: string | string[] | undefined): OrderStatus[] | null {
  const given = listParam(value);
  if (given.length === 0) return null;
  const statuses = given.map((s) => {
    const status = ORDER_STATUS_ALIASES[s] ?? (ORDER_STATUSES as readonly string[]).find((known) => known === s);
    if (!status) throw invalidField('status', `"${s}" is not one of ${ORDER_STATUSES.join(', ')}`);
    return status as OrderStatus;
  });
  return [...new Set(statuses)];
}

function filterFromQuery(query: SalesOrderListQuery, now: Date): OrderListFilter {
  const channelOrderIds = listParam(query.channelOrderIds);
  return {
    updatedFrom: optionalTimestampParam('lastUpdatedTs', query.lastUpdatedTs)?.toISOString() ?? null,
    orderedFrom: optionalTimestampParam('orderTs', query.orderTs)?.toISOString() ?? null,
    statuses: statusFilter(query.status),
    channelOrderIds: channelOrderIds.length > 0 ? channelOrderIds : null,
    warehouseId: query.warehouseId ?? null,
    // Orders placed more than a year ago are excluded unless channelOrderIds is given (document 8).
    windowStart: channelOrderIds.length > 0 ? null : oneYearBefore(now),
  };
}

/** A nextToken overrides every other parameter; one issued to another access token is as invalid as a forged one. */
function fromToken(deps: Deps, principal: Principal, token: string): ListToken {
  return decodeV1Token(deps.signer, ROUTE, principal, token, isListToken);
}

export function registerListOrders(app: App, deps: Deps) {
  app.get(
    ROUTE,
    {
      config: V1_SALES_ORDER_ROUTE_CONFIG,
      preValidation: nextTokenOverridesQuery,
      schema: {
        tags: ['v1 sales orders'],
        summary: 'List sales orders',
        description:
          'Orders (document 2.10) sorted by `lastUpdatedTs`, oldest first (ties by order number). Filters: ' +
          '`lastUpdatedTs` and `orderTs` (inclusive lower bounds, RFC 3339 with a zone), `status` (comma-separated ' +
          'and/or repeated; CANCELED and PARTIALLY_CANCELLED are read as CANCELLED), `channelOrderIds`, ' +
          '`warehouseId` (only orders with lines routed there, showing only those lines and the quantities routed ' +
          'there). Orders placed more than one year ago are excluded unless `channelOrderIds` is given. A ' +
          'storefront token with sales:orders:self sees its own orders; a fulfillment/inventory :self token the ' +
          'orders routed to its warehouses, narrowed to them.\n\n' +
          'Paging: `pageLength` 1..100 (default 25); `pagination.nextToken` is the absolute URL of the next page ' +
          '(GET it unchanged with the same access token; it overrides every other parameter, even an invalid one), "" on the ' +
          'last page; another access token gets 400 invalid nextToken. An order updated while you ' +
          'page may appear again, never be skipped.',
        querystring: SalesOrderListQuery,
        response: v1Responses({ 200: SalesOrderListV1 }, [400, 401, 403, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { query } = request;
      const state =
        query.nextToken !== undefined && query.nextToken !== ''
          ? fromToken(deps, principal, query.nextToken)
          : {
              filter: filterFromQuery(query, deps.clock.now()),
              pageLength: query.pageLength ?? DEFAULT_PAGE_LENGTH,
              after: null,
            };
      const page = await listSalesOrders(deps.db.db, principal, state.filter, state.after, state.pageLength, deps.db);
      const next: ListToken | null = page.next
        ? { filter: state.filter, pageLength: state.pageLength, after: page.next }
        : null;
      return { results: page.results, pagination: v1Pagination(request, deps.signer, deps.config.publicBaseUrl, ROUTE, principal, next) };
    },
  );
}
