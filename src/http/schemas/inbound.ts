import { Type } from '@sinclair/typebox';
import { INBOUND_STATUSES, MAX_LINE_QUANTITY, MAX_SHIPMENT_PRODUCTS, type InboundStatus } from '../../domain/inbound/model.js';
import { IdText, NameText, Nullable, Sku, Timestamp, V1Pagination } from './common.js';

/** Shapes of the v1 inbound shipment and vendor routes (document 2.5, 2.8, 4.3; resolutions §3, §8). */

const MAX_ID = 2147483647;
const IdInput = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, description });

// `enum` rather than a union of literals so a bad value is answered with the list of allowed ones.
export const InboundStatusSchema = Type.Unsafe<InboundStatus>({
  type: 'string',
  enum: [...INBOUND_STATUSES],
  description: 'inbound shipment status (document 3.1)',
});

/** A cost: a v1 number (or a decimal string), ≥ 0, at most 4 decimals; kept as an exact decimal. */
const CostInput = (description: string) =>
  Type.Union([Type.Number({ minimum: 0 }), Type.String({ maxLength: 32, pattern: '^\\s*\\d+(\\.\\d+)?\\s*$' }), Type.Null()], { description });

const OptionalText = (description: string) => Type.Optional(Nullable(IdText({ description })));

export const ShipmentIdParams = Type.Object({ id: IdInput('inbound shipment id') });

export const CreateShipmentBody = Type.Object(
  {
    inbound_shipment_products: Type.Array(
      Type.Object(
        {
          product_id: Type.Optional(IdInput("the service's product id (see inbound_shipment_products[].product_id of any record)")),
          sku: Type.Optional(Sku({ description: 'the SKU; unknown SKUs are refused unless create_new_products is true' })),
          quantity: Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY, description: 'units sent' }),
          unit_item_cost: Type.Optional(CostInput('cost of one unit from the vendor')),
          received_quantity: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: MAX_LINE_QUANTITY,
              description:
                'addition: units already arrived, 0 to quantity; only with status RECEIVED (default and only value: quantity) or PARTIALLY_RECEIVED (default 0)',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_SHIPMENT_PRODUCTS, description: `1 to ${MAX_SHIPMENT_PRODUCTS} products, each SKU once` },
    ),
    status: InboundStatusSchema,
    vendor_name: NameText({ minLength: 1, description: 'the vendor, by name (case-insensitive); created when the account has none by that name' }),
    vendor_id: Type.Optional(IdInput('addition: an existing vendor by id; vendor_name must then be its name')),
    destination_warehouse_id: IdInput('a warehouse of the account'),
    purchase_order_number: IdText({ minLength: 1, description: "the seller's purchase order number" }),
    shipping_cost: Type.Optional(CostInput('cost of shipping the whole shipment; allocated to the units by count')),
    expected_delivery_date: Type.Optional(Nullable(Type.String({ maxLength: 40, description: 'addition: YYYY-MM-DD (or an RFC 3339 timestamp)' }))),
    tracking: OptionalText('addition: tracking number'),
    carrier: OptionalText('addition: carrier'),
    create_new_products: Type.Optional(Type.Boolean({ default: false, description: 'addition: create unknown SKUs (as bare products) instead of refusing them' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        inbound_shipment_products: [{ sku: 'MUG-RED', quantity: 100, unit_item_cost: 2.5 }],
        status: 'PENDING',
        vendor_name: 'Acme Ceramics',
        destination_warehouse_id: 1,
        purchase_order_number: 'PO-1001',
        shipping_cost: 40,
      },
    ],
  },
);

export const ShipBody = Type.Object(
  {
    carrier: OptionalText('carrier'),
    tracking: OptionalText('tracking number'),
    expected_delivery_date: Type.Optional(Nullable(Type.String({ maxLength: 40, description: 'YYYY-MM-DD (or an RFC 3339 timestamp)' }))),
  },
  { additionalProperties: false, examples: [{ carrier: 'UPS', tracking: '1Z999AA10123456784', expected_delivery_date: '2026-12-01' }] },
);

export const ReceiveBody = Type.Object(
  {
    products: Type.Array(
      Type.Object(
        {
          sku: Type.Optional(Sku({ description: 'the line, by SKU' })),
          product_id: Type.Optional(IdInput('or the line, by product id')),
          quantity: Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY, description: 'units that arrived in this receipt' }),
          unit_item_cost: Type.Optional(CostInput("addition: the unit cost invoiced for these units, when it differs from the line's")),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_SHIPMENT_PRODUCTS },
    ),
  },
  { additionalProperties: false, examples: [{ products: [{ sku: 'MUG-RED', quantity: 60 }] }] },
);

const ShipmentProduct = Type.Object({
  product_id: Type.Integer(),
  sku: Type.String(),
  quantity: Type.Integer({ description: 'units sent' }),
  received_quantity: Type.Integer({ description: 'addition: units received so far' }),
  unit_item_cost: Nullable(Type.Number()),
});

const ReceiptProduct = Type.Object({
  product_id: Type.Integer(),
  sku: Type.String(),
  quantity: Type.Integer(),
  unit_item_cost: Nullable(Type.Number()),
  shipping_cost: Type.Number({ description: "these units' share of the shipment's shipping cost" }),
});

const Receipt = Type.Object({
  receipt_id: Type.Integer(),
  received_at: Timestamp,
  received_by: Type.String({ description: '"seller", "operator" or "integration <installation id>"' }),
  products: Type.Array(ReceiptProduct),
});

export const InboundShipment = Type.Object(
  {
    id: Type.Integer(),
    status: InboundStatusSchema,
    vendor: Type.Object({ vendorId: Type.Integer(), name: Type.String() }),
    vendor_name: Type.String(),
    warehouse: Type.Object({
      warehouseId: Type.Integer(),
      name: Type.String(),
      warehouseUniqueId: Nullable(Type.String({ description: "the caller's own id for the warehouse, when it has one" })),
    }),
    destination_warehouse_id: Type.Integer(),
    purchase_order_number: Type.String(),
    shipping_cost: Nullable(Type.Number()),
    expected_delivery_date: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
    tracking: Nullable(Type.String()),
    carrier: Nullable(Type.String()),
    inbound_shipment_products: Type.Array(ShipmentProduct),
    receipts: Type.Array(Receipt, { description: 'addition: each receipt, oldest first' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    shipped_at: Nullable(Timestamp),
    received_at: Nullable(Timestamp),
    cancelled_at: Nullable(Timestamp),
  },
);

export const InboundShipmentList = Type.Object({
  results: Type.Array(InboundShipment),
  pagination: V1Pagination,
});

export const VendorResult = Type.Object(
  {
    vendorId: Type.Integer(),
    name: Type.String(),
    address: Nullable(Type.String()),
    leadTimeDays: Nullable(Type.Integer()),
    notes: Nullable(Type.String()),
    paymentWindowDays: Nullable(Type.Integer()),
  },
);
