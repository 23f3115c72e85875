import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { recordV1Shipments, shippedOrderViews } from '../../../domain/orders/packages-v1.js';
import { principalOf } from '../../plugins/auth.js';
import { IdText, NameText, Nullable, Sku, v1Responses } from '../../schemas/common.js';
import { SalesOrderV1 } from '../../schemas/sales-orders-v1.js';
import { V1_SALES_ORDER_ROUTE_CONFIG } from './route-config.js';

const DecimalInput = Type.Union([Type.Number(), Type.String({ pattern: '^-?\\d+(\\.\\d+)?$' })]);
const Opt = <T extends Parameters<typeof Nullable>[0]>(schema: T) => Type.Optional(Nullable(schema));
const LooseAddress = Type.Object({}, { additionalProperties: true, description: 'an address (document 2.10 shape), stored as given' });

const PackageInput = Type.Object({
  orderNumber: Type.Union([Type.String({ minLength: 1 }), Type.Integer({ minimum: 1 })]),
  fulfillmentPackageId: Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Integer()], {
    description: 'your package id; the replay key together with orderNumber',
  }),
  warehouseId: Type.Integer({ description: 'the warehouse the package left from' }),
  carrier: NameText(),
  tracking: IdText(),
  service_level: NameText(),
  shippedTs: Opt(Type.String({ description: 'RFC 3339 with a time zone; default: the time of the request' })),
  cost: Opt(DecimalInput),
  packageWeight: Opt(DecimalInput),
  packageWeightUom: Opt(Type.String()),
  dimensions: Opt(
    Type.Object(
      { length: Opt(DecimalInput), width: Opt(DecimalInput), height: Opt(DecimalInput) },
      { additionalProperties: false, description: 'inches' },
    ),
  ),
  shippedFrom: Opt(LooseAddress),
  shippedTo: Opt(LooseAddress),
  products: Opt(
    Type.Array(
      Type.Object({
        sku: Opt(Sku()),
        lineItemId: Opt(Type.Union([Type.String(), Type.Integer()])),
        quantity: Type.Integer({ minimum: 1 }),
      }),
      { maxItems: 1000, description: 'units shipped per line (up to 1000 entries); omit or leave empty for a tracking-only package' },
    ),
  ),
});

const ShipmentsBody = Type.Object({ packages: Type.Array(PackageInput, { minItems: 1, maxItems: 50 }) }, { examples: [{ packages: [{ orderNumber: 1042, fulfillmentPackageId: 'PKG-7781', warehouseId: 1, carrier: 'UPS', tracking: '1Z999AA10123456784', service_level: 'Ground', shippedTs: '2026-11-21T15:00:00Z', products: [{ lineItemId: '311', quantity: 2 }] }] }] });

export function registerCreateShipments(app: App, deps: Deps) {
  app.post(
    '/v1/salesOrder/shipments',
    {
      config: V1_SALES_ORDER_ROUTE_CONFIG,
      schema: {
        tags: ['v1 sales orders'],
        summary: 'Record shipped packages',
        description:
          'Up to 50 packages, recorded in one transaction: any bad package (unknown order, warehouse or line, a ' +
          'quantity over what is still owed in that warehouse) is a 400/404 and nothing is recorded. Replay-safe ' +
          'on (orderNumber, fulfillmentPackageId): a package already recorded is left unchanged. A package with ' +
          '`products` marks those units shipped (each product by `lineItemId`, or by a `sku` that is on exactly ' +
          'one line); a package without products records carrier and tracking only. Shipped units come out of ' +
          'the units routed to `warehouseId` (reserved first, then backordered). `shippedTs` (default: the time of ' +
          'the request) may be neither before the order\'s `orderTs` nor more than a day after the time of the ' +
          'request: either is a 400 naming the package (`packages[i].shippedTs` and its fulfillmentPackageId), ' +
          'nothing recorded. Any token that sees the order ' +
          'may ship it; a shipping, inventory or 3PL token only from its own warehouses (else 403). Answers ' +
          '`orderDetails`: each order named, once, in the order first named, as the caller sees it.',
        body: ShipmentsBody,
        response: v1Responses({ 200: Type.Object({ orderDetails: Type.Array(SalesOrderV1) }) }, [400, 401, 403, 404, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { orderNumbers } = await withTx(deps.db.db, (tx) => recordV1Shipments(tx, principal, request.body.packages, deps.clock.now()));
      return { orderDetails: await shippedOrderViews(deps.db.db, principal, orderNumbers) };
    },
  );
}
