import { Type } from '@sinclair/typebox';
import { Id } from '../schemas.js';

export const OrderParams = Type.Object({
  accountId: Id('account id'),
  orderNumber: Type.String({ description: 'the service order number' }),
});

export const ReturnParams = Type.Object({
  accountId: Id('account id'),
  orderNumber: Type.String({ description: 'the service order number' }),
  returnOrderId: Id('returnOrderId from the order\'s returnOrders'),
});

export const LineItemId = Type.Union([Type.String({ pattern: '^\\d{1,15}$' }), Type.Integer({ minimum: 1 })], {
  description: 'the service lineItemId',
});

export const TAGS = ['admin: sales orders'];

/** lineItemId as a number (the schema admits digit strings and integers). */
export const lineIdOf = (value: string | number): number => Number(value);
