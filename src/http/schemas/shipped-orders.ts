import { Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';

/**
 * ShippedOrder (document 2.16): the lean order view of the shipped feed (GET /v2/storefront/orders/shipped),
 * also what GET /v2/storefront/order answers. int64 fields are JSON strings.
 */

const Item = Type.Object({ lineItemId: Type.String(), sku: Type.String(), quantity: Type.String({ description: 'int64' }), channelSku: Type.String() });
export const ShippedOrder = Type.Object({
  channelOrderId: Type.String(),
  status: Type.String({ description: 'the internal status: SHIPPED or PARTIALLY_SHIPPED in the shipped feed; any status in GET /v2/storefront/order' }),
  salesChannelStatus: Type.String({ description: 'the last status the channel confirmed; "" when none' }),
  lastUpdatedTs: Timestamp,
  orderNumber: Type.String({ description: 'int64' }),
  marketplaceId: Type.String(),
  standardServiceLevel: Type.String(),
  lineItems: Type.Array(
    Type.Object({
      lineItemId: Type.String(),
      channelLineItemId: Type.String(),
      sku: Type.String(),
      quantity: Type.String({ description: 'int64' }),
      channelSku: Type.String(),
    }),
  ),
  packages: Type.Array(
    Type.Object({
      packageId: Type.String({ description: 'int64' }),
      carrier: Type.String(),
      serviceLevel: Type.String(),
      tracking: Type.String(),
      shippedTs: Timestamp,
      items: Type.Array(Item),
    }),
    {
      description:
        'one entry per tracking number: packages recorded under one tracking number are merged (first packageId, ' +
        'earliest shippedTs, items summed per line); packages without a tracking number stay one entry each',
    },
  ),
});
