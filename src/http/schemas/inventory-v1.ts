import { Type, type Static } from '@sinclair/typebox';
import { STANDARD_PRODUCT_ID_TYPES, type StandardProductIdType } from '../../domain/catalog/products.js';
import { MAX_ID_LENGTH, NameText, NO_CONTROL_CHARACTERS, Nullable, Sku, Timestamp, V1Pagination } from './common.js';

/** v1 inventory and warehouse shapes: document 2.3 / 2.4 and resolutions §3, field names exactly as given. */

const INT32_MAX = 2147483647;

export const WarehouseV1 = Type.Object({
  warehouseId: Type.Integer(),
  warehouseUniqueId: Nullable(Type.String({ description: "the caller's own id for this warehouse; null when it has none" })),
  name: Type.String(),
  canUpdateInventory: Type.Boolean({
    description: "false when another integration controls this warehouse's stock, or it is outside an inventory:self token's own warehouses",
  }),
});

export const WarehouseListV1 = Type.Object(
  { results: Type.Array(WarehouseV1) },
  {
    description: 'the warehouses of the account',
    examples: [
      {
        results: [
          { warehouseId: 1, warehouseUniqueId: null, name: 'Main', canUpdateInventory: true },
          { warehouseId: 2, warehouseUniqueId: 'WH-SECOND', name: 'Second', canUpdateInventory: false },
        ],
      },
    ],
  },
);

export const SkuParams = Type.Object({ SKU: Sku({ description: 'the SKU, exact (case-sensitive)' }) });

// A plain string enum (not a union of literals) so a wrong value gets one message naming the choices.
const StandardProductIdType = Type.Unsafe<StandardProductIdType>(
  Type.String({ enum: [...STANDARD_PRODUCT_ID_TYPES], description: 'UPC, EAN, ISBN or GTIN' }),
);

export const SimpleInventoryV1 = Type.Object(
  {
    SKU: Type.String(),
    standardProductId: Nullable(Type.String()),
    active: Type.Boolean(),
    standardProductIdType: Nullable(Type.String({ description: 'UPC, EAN, ISBN or GTIN' })),
    totalAvailableQuantity: Type.Integer({ description: 'available units over the warehouses the token may see' }),
    lastInventoryUpdateTs: Timestamp,
  },
  {
    description: 'the simple inventory record (document 2.3)',
    examples: [
      {
        SKU: 'MUG-RED',
        standardProductId: '012345678905',
        active: true,
        standardProductIdType: 'UPC',
        totalAvailableQuantity: 17,
        lastInventoryUpdateTs: '2026-11-21T22:13:08.123Z',
      },
    ],
  },
);

const WarehouseInventoryV1 = Type.Object({
  warehouseId: Type.Integer({ description: 'the service warehouse id (an addition to the document shape)' }),
  warehouseName: Type.String(),
  warehouseUniqueId: Type.String({ description: "the caller's own id for the warehouse, else the warehouse id as a string" }),
  availableQuantity: Type.Integer({ description: 'excludes units reserved by pending sales orders' }),
  assembledQuantity: Nullable(Type.Integer({ description: 'assembled kits' })),
  inventoryLocations: Type.Array(
    Type.Object({ binLocation: Type.String(), quantity: Type.Integer({ description: 'on-hand units at the bin' }) }),
  ),
  updatedTs: Timestamp,
  inboundShipments: Type.Array(
    Type.Object({
      inboundShipmentId: Type.Integer({ description: 'addition: the inbound shipment (GET /v1/inbound-shipment/{id})' }),
      status: Type.String({ description: 'addition: PENDING, SHIPPED or PARTIALLY_RECEIVED' }),
      quantity: Type.Integer({ description: 'units of the SKU sent on the shipment' }),
      receivedQuantity: Type.Integer({ description: 'addition: units of them received so far' }),
      expectedDeliveryDate: Nullable(Type.String({ format: 'date', description: 'YYYY-MM-DD; null when unknown' })),
      tracking: Nullable(Type.String()),
      carrier: Nullable(Type.String()),
    }),
    { description: 'open inbound shipments still expecting units of the SKU in this warehouse, oldest first' },
  ),
});

const DETAILED_EXAMPLE = {
  SKU: 'MUG-RED',
  active: true,
  standardProductId: '012345678905',
  standardProductIdType: 'UPC',
  totalAvailableQuantity: 17,
  warehouses: [
    {
      warehouseId: 1,
      warehouseName: 'Main',
      warehouseUniqueId: '1',
      availableQuantity: 12,
      assembledQuantity: null,
      inventoryLocations: [{ binLocation: 'A-01-3', quantity: 14 }],
      updatedTs: '2026-11-21T22:13:08.123Z',
      inboundShipments: [],
    },
    {
      warehouseId: 2,
      warehouseName: 'Second',
      warehouseUniqueId: 'WH-SECOND',
      availableQuantity: 5,
      assembledQuantity: null,
      inventoryLocations: [],
      updatedTs: '2026-11-20T09:00:00.000Z',
      inboundShipments: [
        {
          inboundShipmentId: 41,
          status: 'SHIPPED',
          quantity: 100,
          receivedQuantity: 0,
          expectedDeliveryDate: '2026-12-01',
          tracking: '1Z999AA10123456784',
          carrier: 'UPS',
        },
      ],
    },
  ],
  lastInventoryUpdateTs: '2026-11-21T22:13:08.123Z',
};

export const DetailedInventoryV1 = Type.Object(
  {
    SKU: Type.String(),
    active: Type.Boolean(),
    standardProductId: Nullable(Type.String()),
    standardProductIdType: Nullable(Type.String({ description: 'UPC, EAN, ISBN or GTIN' })),
    totalAvailableQuantity: Type.Integer({ description: 'sum of availableQuantity over the warehouses shown' }),
    warehouses: Type.Array(WarehouseInventoryV1, {
      description: 'warehouses holding a stock record of the SKU or expecting units of it on an open inbound shipment',
    }),
    lastInventoryUpdateTs: Timestamp,
  },
  { description: 'the detailed inventory record (document 2.3)', examples: [DETAILED_EXAMPLE] },
);

export const InventoryListQuery = Type.Object({
  activeOnly: Type.Optional(Type.Boolean({ description: 'only active products', default: false })),
  lastUpdatedTs: Type.Optional(
    Type.String({ description: 'RFC 3339 with a zone: SKUs whose inventory changed strictly after it' }),
  ),
  skus: Type.Optional(
    // No length limit here: a value may still hold several comma-separated SKUs.
    Type.Array(Type.String({ pattern: NO_CONTROL_CHARACTERS }), {
      description:
        "comma-separated and/or repeated (one pair of surrounding quotes, skus='A,B', is unwrapped); when given, lastUpdatedTs and warehouses are ignored",
    }),
  ),
  isCaseSensitive: Type.Optional(Type.Boolean({ description: 'match skus case-sensitively', default: true })),
  warehouses: Type.Optional(
    Type.Array(Type.String(), {
      description: 'warehouse ids, comma-separated and/or repeated: SKUs stocked there, showing only those warehouses',
    }),
  ),
  pageLength: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
  nextToken: Type.Optional(Type.String({ description: 'from pagination.nextToken; overrides every other parameter, even an invalid one' })),
});
export type InventoryListQuery = Static<typeof InventoryListQuery>;

export const InventoryListV1 = Type.Object(
  {
    results: Type.Array(DetailedInventoryV1),
    errors: Type.Array(Type.String(), { description: 'requested skus that do not exist (first page only)' }),
    pagination: V1Pagination,
  },
  {
    description: 'one page of detailed inventory records',
    examples: [
      {
        results: [DETAILED_EXAMPLE],
        errors: ['NO-SUCH-SKU'],
        pagination: {
          hasNext: true,
          nextToken: 'https://api.example.com/v1/inventory?nextToken=eyJ2IjoxLCJhIjo…',
        },
      },
    ],
  },
);

/**
 * An optional integer that may also be sent as null, meaning "not given": clients that serialize every
 * field send the two unused quantity fields as null. One JSON-schema type list, not a union, so a wrong
 * value gets one message.
 */
const nullableInteger = (options: { minimum: number; maximum: number; description: string }) =>
  Type.Optional(Type.Unsafe<number | null>({ type: ['integer', 'null'], ...options }));

const nullableString = (options: { minLength?: number; maxLength?: number; description?: string } = {}) =>
  Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], ...options }));

/** Fields every item of both body shapes shares; exactly one of the three quantities (checked per item). */
const quantityFields = {
  SKU: Sku(),
  quantity: nullableInteger({ minimum: 0, maximum: INT32_MAX, description: 'sets the available quantity' }),
  delta_quantity: nullableInteger({
    minimum: -INT32_MAX,
    maximum: INT32_MAX,
    description: 'adds to available and on-hand; may be negative',
  }),
  onhand_quantity: nullableInteger({ minimum: 0, maximum: INT32_MAX, description: 'sets on-hand; available = on-hand − reserved' }),
};

const DocumentItem = Type.Object({
  ...quantityFields,
  standardProductId: Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH }),
  standardProductIdType: StandardProductIdType,
});

const PublicItem = Type.Object({
  ...quantityFields,
  warehouseId: Type.Integer({ minimum: 1 }),
  binLocation: nullableString({ maxLength: MAX_ID_LENGTH, description: 'bin holding the on-hand units' }),
  standardProductId: nullableString({ minLength: 1, maxLength: MAX_ID_LENGTH }),
  standardProductIdType: Type.Optional(
    Type.Unsafe<StandardProductIdType | null>({
      type: ['string', 'null'],
      enum: [...STANDARD_PRODUCT_ID_TYPES, null],
      description: 'UPC, EAN, ISBN or GTIN',
    }),
  ),
});

/**
 * Both shapes of resolutions §3 in one object (a union would report every problem twice, once per
 * branch); the handler checks that exactly one of items / products is sent.
 */
export const InventoryUpdateV1 = Type.Object(
  {
    pulled_ts: Type.Optional(Type.String({ description: 'document shape: when the counts were taken (RFC 3339 with a zone)' })),
    warehouseName: Type.Optional(
      NameText({ minLength: 1, description: "document shape: the warehouse's name in the account, or the caller's warehouseUniqueId" }),
    ),
    items: Type.Optional(Type.Array(DocumentItem, { minItems: 1, maxItems: 50, description: 'document shape' })),
    validAsOf: Type.Optional(Type.String({ description: 'public shape: when the counts were taken (RFC 3339 with a zone)' })),
    products: Type.Optional(Type.Array(PublicItem, { minItems: 1, maxItems: 50, description: 'public shape' })),
  },
  {
    examples: [
      {
        pulled_ts: '2026-11-21T22:00:00Z',
        warehouseName: 'Main',
        items: [
          { SKU: 'MUG-RED', standardProductId: '012345678905', standardProductIdType: 'UPC', quantity: 12 },
          { SKU: 'MUG-BLUE', standardProductId: '012345678912', standardProductIdType: 'UPC', delta_quantity: -2 },
        ],
      },
      {
        validAsOf: '2026-11-21T22:00:00Z',
        products: [{ SKU: 'MUG-RED', warehouseId: 1, binLocation: 'A-01-3', onhand_quantity: 14 }],
      },
    ],
  },
);
export type InventoryUpdateV1 = Static<typeof InventoryUpdateV1>;

export const InventoryUpdateResultV1 = Type.Object(
  {
    results: Type.Array(
      Type.Object({
        SKU: Type.String(),
        warehouseId: Nullable(Type.Integer({ description: 'null when warehouseName named no warehouse' })),
        success: Type.Boolean(),
        errorMessage: Type.String({ description: '"" on success' }),
      }),
    ),
  },
  {
    description: 'one result per item, in request order',
    examples: [
      {
        results: [
          { SKU: 'MUG-RED', warehouseId: 1, success: true, errorMessage: '' },
          {
            SKU: 'MUG-BLUE',
            warehouseId: 1,
            success: false,
            errorMessage: 'delta_quantity -2 would make the available quantity negative',
          },
        ],
      },
    ],
  },
);
