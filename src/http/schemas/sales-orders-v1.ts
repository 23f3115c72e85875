import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ACCOUNTING_FIELDS, CONFIRMABLE_STATUSES, STANDARD_SERVICE_LEVELS, type StandardServiceLevel } from '../../domain/orders/model.js';
import { FreeText, IdText, NameText, Nullable, Sku, Timestamp, V1Pagination } from './common.js';

/** v1 sales order shapes: document 2.10 and resolutions §3, field names exactly as the document gives them. */

// Plain string enums (not unions of literals) so a wrong value gets one message naming the choices.
const stringEnum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], ...(description ? { description } : {}) }));

/** Money and measures: a JSON number (document) or a decimal string, kept as an exact decimal. */
const DecimalInput = Type.Union([Type.Number(), Type.String({ pattern: '^-?\\d+(\\.\\d+)?$' })], {
  description: 'a number or a decimal string; stored as an exact decimal',
});
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const TimeInput = Type.String({ description: 'RFC 3339 with a time zone' });

const AddressInput = Type.Object(
  {
    name: NameText(),
    company: Opt(NameText()),
    addressLine1: NameText(),
    addressLine2: Opt(NameText()),
    city: NameText(),
    state: Opt(NameText()),
    postalCode: IdText(),
    phone: Opt(IdText()),
    email: Opt(NameText()),
    countryCode: Opt(Type.String({ description: 'exactly 2 characters; default US' })),
    type: Opt(IdText({ description: 'for example residential or commercial' })),
  },
  { additionalProperties: true },
);

const Dimension = Type.Object({ numeric: Type.Number(), unit: Type.String() });
const PackageDimensions = Type.Object(
  { length: Type.Optional(Dimension), width: Type.Optional(Dimension), height: Type.Optional(Dimension) },
  { additionalProperties: false },
);

const LineInput = Type.Object(
  {
    requestedSku: Type.Optional(Sku({ description: 'the SKU the channel asked for (or give sku)' })),
    sku: Type.Optional(Sku({ description: 'used as requestedSku when requestedSku is absent' })),
    quantity: Type.Integer({ minimum: 1, maximum: 1000000 }),
    channelLineItemId: Opt(IdText()),
    requestedTitle: Opt(NameText()),
    title: Opt(NameText({ description: "the line's title; when not sent the line shows the catalog product's title" })),
    unitPrice: Opt(DecimalInput),
    cost: Opt(DecimalInput),
    totalWeight: Opt(DecimalInput),
    packageDimensions: Opt(PackageDimensions),
    hazmat: Opt(Type.Object({ flagged: Type.Boolean() })),
    giftWrapMessage: Opt(FreeText()),
    giftWrapLevel: Opt(Type.String()),
    earliestShipBy: Opt(TimeInput),
    latestShipBy: Opt(TimeInput),
    earliestDeliverBy: Opt(TimeInput),
    latestDeliverBy: Opt(TimeInput),
    requestedServiceLevel: Opt(Type.String()),
  },
  { additionalProperties: true },
);

export const CreateSalesOrderBody = Type.Object(
  {
    channelOrderId: IdText({ minLength: 1, description: 'the order id the channel gave; unique per channel' }),
    orderTs: TimeInput,
    status: Type.Optional(stringEnum(['PENDING', 'PENDING_PAYMENT'] as const, 'default PENDING')),
    channel: Type.Optional(NameText({ description: 'seller tokens only (a storefront token uses its own)' })),
    channelLabel: Opt(NameText({ description: 'seller tokens only' })),
    integrationId: Opt(
      Type.Integer({
        minimum: 1,
        maximum: 2147483647,
        description: 'seller tokens only: the custom store (GET /v1/customStores) the order belongs to; its name is the channel',
      }),
    ),
    channelOrderReferenceNumber: Opt(IdText()),
    customer_notes: Opt(FreeText()),
    marketplaceId: Opt(IdText()),
    customerName: Opt(NameText()),
    customerEmail: Opt(NameText()),
    requestedServiceLevel: Opt(Type.String()),
    standardServiceLevel: Opt(stringEnum<StandardServiceLevel>(STANDARD_SERVICE_LEVELS)),
    accounting: Opt(
      Type.Object(Object.fromEntries(ACCOUNTING_FIELDS.map((f) => [f, Opt(DecimalInput)])), { additionalProperties: true }),
    ),
    shippingAddress: Opt(AddressInput),
    billingAddress: Opt(AddressInput),
    fba: Type.Optional(Type.Boolean()),
    channelWillFulfill: Type.Optional(Type.Boolean()),
    prime: Type.Optional(Type.Boolean()),
    businessOrder: Type.Optional(Type.Boolean()),
    products: Type.Array(LineInput, { minItems: 1, maxItems: 500 }),
  },
  {
    additionalProperties: true,
    examples: [
      {
        channelOrderId: '112-0000001-0000001',
        orderTs: '2026-11-21T22:13:08Z',
        customerName: 'Ada Buyer',
        shippingAddress: { name: 'Ada Buyer', addressLine1: '1 Main St', city: 'Springfield', postalCode: '12345', countryCode: 'US' },
        products: [{ requestedSku: 'MUG-RED', quantity: 2, unitPrice: 12.5, channelLineItemId: 'L1' }],
      },
    ],
  },
);
export type CreateSalesOrderBody = Static<typeof CreateSalesOrderBody>;

export const OrderNumberParams = Type.Object({ orderNumber: Type.String({ description: 'the service order number' }) });

export const ConfirmStatusBody = Type.Object({
  status: stringEnum(CONFIRMABLE_STATUSES, 'an order status (3.3), or PARTIALLY_CACNCELLED spelled exactly so'),
  lineItems: Type.Array(Type.String(), { description: 'lineItemIds of the order the status change covers' }),
}, { examples: [{ status: 'SHIPPED', lineItems: ['311', '312'] }] });

export const SalesOrderListQuery = Type.Object({
  lastUpdatedTs: Type.Optional(Type.String({ description: 'RFC 3339 with a zone; inclusive lower bound' })),
  status: Type.Optional(Type.Array(Type.String(), { description: 'comma-separated and/or repeated order statuses' })),
  channelOrderIds: Type.Optional(Type.Array(Type.String(), { description: 'comma-separated and/or repeated' })),
  orderTs: Type.Optional(Type.String({ description: 'RFC 3339 with a zone; inclusive lower bound on orderTs' })),
  pageLength: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: '1..100, default 25' })),
  nextToken: Type.Optional(Type.String({ description: 'from pagination.nextToken; overrides every other parameter, even an invalid one' })),
  warehouseId: Type.Optional(Type.Integer({ minimum: 1, description: 'only line items routed to that warehouse' })),
});
export type SalesOrderListQuery = Static<typeof SalesOrderListQuery>;

// After a personal-data redaction (resolutions §10) an address holds only countryCode: every other field is
// optional in the answer.
const REDACTED = { description: "absent once the order's personal data was redacted (personalDataRedactedTs)" };
const Address = Type.Object({
  name: Type.Optional(Type.String(REDACTED)),
  company: Type.Optional(Nullable(Type.String())),
  addressLine1: Type.Optional(Type.String(REDACTED)),
  addressLine2: Type.Optional(Nullable(Type.String())),
  city: Type.Optional(Type.String(REDACTED)),
  state: Type.Optional(Nullable(Type.String())),
  postalCode: Type.Optional(Type.String(REDACTED)),
  phone: Type.Optional(Nullable(Type.String())),
  email: Type.Optional(Nullable(Type.String())),
  countryCode: Type.String(),
  type: Type.Optional(Nullable(Type.String())),
});

const RoutingInfo = Type.Object({
  warehouseId: Type.Integer(),
  warehouseUniqueId: Type.Optional(
    Nullable(Type.String({ description: "only for inventory, shipping and 3PL tokens: the caller's id for the warehouse" })),
  ),
  quantity: Type.Integer({ description: 'units taken from that warehouse (including backordered ones)' }),
  assembledQuantity: Nullable(Type.Integer({ description: 'kit lines: how many of these kits were already assembled; null for a single SKU' })),
  kitComponents: Nullable(
    Type.Array(Type.Object({ SKU: Type.String(), componentQuantity: Type.Integer({ description: 'units per kit' }) }), {
      description: 'kit lines: the components per kit (the recipe the line was routed with); null for a single SKU',
    }),
  ),
});

const LineItem = Type.Object({
  lineItemId: Type.String(),
  channelLineItemId: Nullable(Type.String()),
  status: Type.String(),
  requestedTitle: Nullable(Type.String()),
  requestedSku: Type.String(),
  sku: Nullable(Type.String({ description: 'null when the requested SKU is not in the catalog' })),
  SKU: Nullable(Type.String({ description: 'deprecated: use sku' })),
  primary_image: Nullable(Type.Object({ url: Type.String(), hash: Type.String() })),
  mpn: Nullable(Type.String()),
  standard_product_id: Nullable(Type.String()),
  title: Nullable(Type.String()),
  quantity: Type.Integer(),
  routing_info: Type.Array(RoutingInfo),
  cancelQuantity: Type.Integer(),
  shippedQuantity: Type.Integer(),
  unitPrice: Nullable(Type.Number()),
  cost: Nullable(Type.Number()),
  totalWeight: Nullable(Type.Number()),
  packageDimensions: Nullable(PackageDimensions),
  hazmat: Nullable(Type.Object({ flagged: Type.Boolean() }, { description: 'null: no usable hazmat answer' })),
  refund: Nullable(Type.Number()),
  refundReason: Nullable(Type.String()),
  giftWrapMessage: Nullable(Type.String()),
  giftWrapLevel: Nullable(Type.String()),
  earliestShipBy: Nullable(Timestamp),
  latestShipBy: Nullable(Timestamp),
  earliestDeliverBy: Nullable(Timestamp),
  latestDeliverBy: Nullable(Timestamp),
  requestedServiceLevel: Nullable(Type.String()),
});

/** Document 2.10 Package; a narrowed token sees only the packages shipped from its warehouses. */
const PackageV1 = Type.Object({
  packageId: Type.Integer(),
  carrier: Nullable(Type.String()),
  serviceLevel: Nullable(Type.String()),
  cost: Nullable(Type.Number()),
  tracking: Nullable(Type.String()),
  shippedTs: Timestamp,
  rma: Nullable(Type.String()),
  labelUrl: Nullable(Type.String()),
  packageWeight: Nullable(Type.Number()),
  packageWeightUom: Nullable(Type.String()),
  packageHeight: Nullable(Type.Number({ description: 'inches' })),
  packageWidth: Nullable(Type.Number({ description: 'inches' })),
  packageLength: Nullable(Type.Number({ description: 'inches' })),
  products: Type.Array(Type.Object({ sku: Nullable(Type.String()), lineItemId: Type.String(), quantity: Type.Integer() })),
});

/** Document 2.10 "Return order"; built by src/domain/orders/returns-view.ts (ReturnOrderV1). */
const ReturnOrderV1 = Type.Object(
  {
    returnOrderId: Type.Integer(),
    channelReturnId: Nullable(Type.String({ description: "the channel's id of the return, when it gave one" })),
    requestTs: Timestamp,
    cancelled: Type.Boolean(),
    returnItems: Type.Array(
      Type.Object({
        returnOrderItemId: Type.Integer(),
        SKU: Type.String(),
        quantity: Type.Integer({ description: 'units being returned' }),
        originalQuantity: Type.Integer({ description: 'units the order line was for' }),
        refundAmount: Nullable(Type.Number({ description: 'null until a refund is recorded for the item' })),
      }),
    ),
  },
  {
    examples: [
      {
        returnOrderId: 3,
        channelReturnId: 'RMA-123',
        requestTs: '2026-11-21T12:00:00.000Z',
        cancelled: false,
        returnItems: [{ returnOrderItemId: 5, SKU: 'FA', quantity: 1, originalQuantity: 2, refundAmount: 19.99 }],
      },
    ],
  },
);

export const SalesOrderV1 = Type.Object(
  {
    orderNumber: Type.String(),
    status: Type.String(),
    cancellationReason: Nullable(Type.String()),
    channel: Type.String(),
    channelLabel: Nullable(Type.String()),
    channelOrderId: Type.String(),
    channelOrderReferenceNumber: Nullable(Type.String()),
    customer_notes: Nullable(Type.String()),
    marketplaceId: Nullable(Type.String()),
    customerName: Nullable(Type.String()),
    customerEmail: Nullable(Type.String()),
    orderTs: Timestamp,
    lastUpdatedTs: Timestamp,
    acceptedTs: Nullable(Timestamp),
    requestedServiceLevel: Nullable(Type.String()),
    standardServiceLevel: Type.String(),
    shipBy: Nullable(Timestamp),
    accounting: Nullable(
      Type.Object(
        Object.fromEntries(
          ACCOUNTING_FIELDS.map((f) => [
            f,
            f === 'refund'
              ? Nullable(Type.Number({ description: "the order's refund total: the order-level refund plus every line's refund; null when none" }))
              : Nullable(Type.Number()),
          ]),
        ),
      ),
    ),
    shippingAddress: Nullable(Address),
    billingAddress: Nullable(Address),
    packages: Type.Array(PackageV1, { description: 'packages shipped (POST /v1/salesOrder/shipments or v2 shipments)' }),
    products: Type.Array(LineItem),
    returnOrders: Type.Array(ReturnOrderV1),
    fba: Type.Boolean(),
    channelWillFulfill: Type.Boolean(),
    prime: Type.Boolean(),
    businessOrder: Type.Boolean(),
    personalDataRedactedTs: Nullable(
      Type.String({
        format: 'date-time',
        description: "when the buyer's personal data was redacted (resolutions §10): addresses then hold only countryCode, customerName, customerEmail and customer_notes are null; null while kept",
      }),
    ),
  },
  { description: 'a sales order (document 2.10)' },
);

export const SalesOrderListV1 = Type.Object({ results: Type.Array(SalesOrderV1), pagination: V1Pagination });
