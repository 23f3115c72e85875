import { Type, type Static } from '@sinclair/typebox';
import { CHECK_SOURCES, CHECK_STATES } from '../../domain/inventory/v2-status.js';
import { UPDATE_FAILURE_REASONS } from '../../domain/inventory/v2-update.js';
import { OptionalIdInput, OptionalSkuInput, Timestamp } from './common.js';

/**
 * v2 inventory shapes (resolutions §4). Inputs accept the camelCase and the snake_case field names
 * (resolutions §0), so both spellings appear below and the handler picks whichever was sent; unknown
 * fields are ignored. Outputs are camelCase; quantities are int32 in the production definition, so JSON
 * numbers (proto3 JSON writes only int64 as strings).
 */

const example = {
  sku: 'MUG-BLUE-12OZ',
  warehouseUniqueId: 'WH-EAST',
  observedTs: '2026-11-21T22:13:08.123Z',
};

// One validation message ("must be string,number") instead of three from an anyOf.
const Int64Like = (description: string) =>
  Type.Unsafe<string | number | null>({ type: ['string', 'number', 'null'], description });

export const ListInventoryQuery = Type.Object(
  {
    updatedSince: Type.Optional(
      Type.String({ description: 'RFC 3339 with a time zone; only rows changed at or after this instant' }),
    ),
    updated_since: Type.Optional(Type.String({ description: 'snake_case alias of updatedSince' })),
    cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page; empty or absent for the first page' })),
    pageSize: Type.Optional(Type.Integer({ description: 'default 50 (also for 0 or negative); values above 500 are lowered to 500' })),
    page_size: Type.Optional(Type.Integer({ description: 'snake_case alias of pageSize' })),
  },
  { additionalProperties: true },
);
export type ListInventoryQuery = Static<typeof ListInventoryQuery>;

export const InventoryItem = Type.Object({
  sku: Type.String(),
  warehouseUniqueId: Type.String({ description: 'the integration\'s own id of the warehouse' }),
  quantity: Type.Integer({ description: 'on-hand units: a JSON number (int32 in the production definition, so not an int64 string)' }),
  lastUpdatedTs: Timestamp,
});

export const ListInventoryResponse = Type.Object(
  {
    items: Type.Array(InventoryItem),
    nextCursor: Type.String({ description: 'pass back as cursor for the next page; "" on the last page' }),
  },
  {
    description: 'one page of stock rows',
    examples: [
      {
        items: [{ sku: example.sku, warehouseUniqueId: example.warehouseUniqueId, quantity: 42, lastUpdatedTs: example.observedTs }],
        nextCursor: '',
      },
    ],
  },
);

export const InventoryUpdateInput = Type.Object(
  {
    sku: OptionalSkuInput('the SKU (must already exist; v2 does not create products)'),
    warehouseUniqueId: OptionalIdInput('one of the integration\'s warehouses (GET /v2/inventory/warehouses)'),
    warehouse_unique_id: OptionalIdInput('snake_case alias of warehouseUniqueId'),
    quantity: Type.Optional(Int64Like('absolute on-hand units: a whole number from 0 to 2147483647 (int32), as a JSON number or string')),
    binLocation: OptionalIdInput('bin location of the units; empty keeps the current one'),
    bin_location: OptionalIdInput('snake_case alias of binLocation'),
  },
  { additionalProperties: true },
);

export const MAX_UPDATES = 100;

export const UpdateInventoryBody = Type.Object(
  {
    updates: Type.Array(InventoryUpdateInput, {
      minItems: 1,
      maxItems: MAX_UPDATES,
      description: `1 to ${MAX_UPDATES} entries; each succeeds or fails on its own`,
    }),
    observedTs: Type.Optional(
      Type.String({ description: 'required (or observed_ts): when the counts were taken, RFC 3339 with a time zone' }),
    ),
    observed_ts: Type.Optional(Type.String({ description: 'snake_case alias of observedTs' })),
  },
  {
    additionalProperties: true,
    examples: [{ updates: [{ sku: example.sku, warehouseUniqueId: example.warehouseUniqueId, quantity: 42, binLocation: 'A-01-3' }], observedTs: example.observedTs }],
  },
);
export type UpdateInventoryBody = Static<typeof UpdateInventoryBody>;

export const InventoryUpdateResultSchema = Type.Object({
  sku: Type.String(),
  warehouseUniqueId: Type.String(),
  success: Type.Boolean(),
  errorMessage: Type.String({ description: '"" on success' }),
  stale: Type.Boolean({ description: 'true when the update was observed before the count already held and was discarded' }),
  failureReason: Type.Union(
    UPDATE_FAILURE_REASONS.map((r) => Type.Literal(r)),
    { description: 'UPDATE_FAILURE_REASON_UNSPECIFIED on success and on a stale update' },
  ),
});

export const UpdateInventoryResponse = Type.Object(
  { results: Type.Array(InventoryUpdateResultSchema, { description: 'one per entry, in request order' }) },
  {
    description: 'one result per entry',
    examples: [
      {
        results: [
          { sku: example.sku, warehouseUniqueId: example.warehouseUniqueId, success: true, errorMessage: '', stale: false, failureReason: 'UPDATE_FAILURE_REASON_UNSPECIFIED' },
          {
            sku: 'NO-SUCH-SKU',
            warehouseUniqueId: example.warehouseUniqueId,
            success: false,
            errorMessage: 'SKU "NO-SUCH-SKU" does not exist in this account',
            stale: false,
            failureReason: 'UPDATE_FAILURE_REASON_UNKNOWN_SKU',
          },
        ],
      },
    ],
  },
);

export const ListWarehousesResponse = Type.Object(
  { warehouses: Type.Array(Type.Object({ warehouseUniqueId: Type.String(), name: Type.String() })) },
  { description: 'the mapped warehouses', examples: [{ warehouses: [{ warehouseUniqueId: example.warehouseUniqueId, name: 'East coast DC' }] }] },
);

export const StatusResponse = Type.Object(
  {
    checks: Type.Array(
      Type.Object({
        name: Type.String(),
        state: Type.Union(CHECK_STATES.map((s) => Type.Literal(s))),
        message: Type.String(),
        source: Type.Union(CHECK_SOURCES.map((s) => Type.Literal(s))),
        warehouseUniqueId: Type.String({ description: '"" for checks about the whole integration' }),
      }),
    ),
  },
  {
    description: 'the checks',
    examples: [
      {
        checks: [
          { name: 'warehouse_mappings', state: 'CHECK_STATE_PASS', message: '1 warehouse(s) mapped: WH-EAST', source: 'CHECK_SOURCE_SERVICE', warehouseUniqueId: '' },
          {
            name: 'inventory_freshness',
            state: 'CHECK_STATE_WARN',
            message: 'East coast DC: inventory last reported 2026-11-19T08:00:00.000Z (62 h ago), more than 24 h ago',
            source: 'CHECK_SOURCE_SERVICE',
            warehouseUniqueId: example.warehouseUniqueId,
          },
        ],
      },
    ],
  },
);
