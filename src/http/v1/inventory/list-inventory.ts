import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import type { Principal } from '../../../domain/accounts/principal.js';
import { invalidArgument } from '../../../domain/errors.js';
import { inboundOnTheWay } from '../../../domain/inbound/on-the-way.js';
import { listInventoryV1, type InventoryListFilter, type KeysetPosition } from '../../../domain/inventory/v1-list.js';
import { decodeV1Token, v1Pagination } from '../../pagination.js';
import { integerListParam, optionalTimestampParam, skusParam } from '../../params.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { InventoryListQuery, InventoryListV1 } from '../../schemas/inventory-v1.js';
import { nextTokenOverridesQuery } from '../next-token.js';
import { V1_INVENTORY_ROUTE_CONFIG } from './route-config.js';

const ROUTE = '/v1/inventory';

/** What a nextToken carries: the filters and page length, and the keyset position (its caller is in the signature). */
interface ListToken {
  filter: InventoryListFilter;
  pageLength: number;
  after: KeysetPosition;
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isIntArray = (v: unknown): v is number[] => Array.isArray(v) && v.every((n) => Number.isSafeInteger(n));

function isListToken(value: unknown): value is ListToken {
  const t = value as Partial<ListToken> | null;
  const f = t?.filter;
  const a = t?.after;
  return (
    typeof t?.pageLength === 'number' &&
    typeof f === 'object' &&
    f !== null &&
    typeof f.activeOnly === 'boolean' &&
    typeof f.caseSensitive === 'boolean' &&
    (f.updatedAfter === null || typeof f.updatedAfter === 'string') &&
    (f.skus === null || isStringArray(f.skus)) &&
    (f.warehouseIds === null || isIntArray(f.warehouseIds)) &&
    typeof a === 'object' &&
    a !== null &&
    typeof a.ts === 'string' &&
    typeof a.id === 'number'
  );
}

function filterFromQuery(query: InventoryListQuery): InventoryListFilter {
  const skus = skusParam(query.skus);
  const warehouseIds = integerListParam('warehouses', query.warehouses);
  const updatedAfter = optionalTimestampParam('lastUpdatedTs', query.lastUpdatedTs);
  if (skus.length === 0 && warehouseIds.length === 0 && updatedAfter === null) {
    throw invalidArgument('give at least one of lastUpdatedTs, skus, warehouses (or a nextToken)');
  }
  return {
    activeOnly: query.activeOnly ?? false,
    updatedAfter: updatedAfter?.toISOString() ?? null,
    skus: skus.length > 0 ? skus : null,
    caseSensitive: query.isCaseSensitive ?? true,
    warehouseIds: warehouseIds.length > 0 ? warehouseIds : null,
  };
}

/** A nextToken overrides every other parameter; one issued to another access token is as invalid as a forged one. */
function fromToken(deps: Deps, principal: Principal, token: string): ListToken {
  return decodeV1Token(deps.signer, ROUTE, principal, token, isListToken);
}

export function registerListInventory(app: App, deps: Deps) {
  app.get(
    ROUTE,
    {
      config: V1_INVENTORY_ROUTE_CONFIG,
      preValidation: nextTokenOverridesQuery,
      schema: {
        tags: ['v1 inventory'],
        summary: 'List detailed inventory records',
        description:
          'Detailed inventory records (document 2.3) selected by `skus` (exact, or case-insensitive with ' +
          '`isCaseSensitive=false`; `lastUpdatedTs` and `warehouses` are then ignored and `errors` lists the ' +
          'requested SKUs that do not exist), or by `lastUpdatedTs` (inventory changed strictly after it) and/or ' +
          '`warehouses` (SKUs with a stock record there; records show only those warehouses). Records are those of ' +
          'GET /v1/inventory/{SKU}: a warehouse expecting units on an open inbound shipment appears even without ' +
          'a stock record, with its `inboundShipments`. At least one of ' +
          'the three is required. `activeOnly=true` keeps active products only. Ordered by last inventory change, ' +
          'then by product; a SKU changed while you page may appear again, never be skipped.\n\n' +
          'Paging: `pageLength` 1..100 (default 25). `pagination.nextToken` is the absolute URL of the next page ' +
          '(GET it unchanged with the same access token; its token overrides every other parameter, even an invalid ' +
          'one), "" on the last page; another access token gets 400 invalid nextToken. An unknown ' +
          'warehouse id is a 400. A token whose inventory scope is inventory:self sees only its mapped warehouses.',
        querystring: InventoryListQuery,
        response: v1Responses({ 200: InventoryListV1 }, [400, 401, 403, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { query } = request;
      const state =
        query.nextToken !== undefined && query.nextToken !== ''
          ? fromToken(deps, principal, query.nextToken)
          : { filter: filterFromQuery(query), pageLength: query.pageLength ?? 25, after: null };
      const page = await listInventoryV1(deps.db.db, principal, state.filter, state.after, state.pageLength, inboundOnTheWay);
      const next: ListToken | null = page.next
        ? { filter: state.filter, pageLength: state.pageLength, after: page.next }
        : null;
      return { results: page.records, errors: page.errors, pagination: v1Pagination(request, deps.signer, deps.config.publicBaseUrl, ROUTE, principal, next) };
    },
  );
}
