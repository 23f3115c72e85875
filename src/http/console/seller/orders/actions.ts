import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx, type Tx } from '../../../../db/tx.js';
import { sellerPrincipalFor } from '../../../../domain/accounts/principal.js';
import { invalidArgument, invalidField } from '../../../../domain/errors.js';
import { fulfillmentPort } from '../../../../domain/fulfillment/port.js';
import { resolveSellerAlert } from '../../../../domain/fulfillment/seller-alerts.js';
import { cancelOrderUnits } from '../../../../domain/orders/cancel.js';
import { markOrderPaid } from '../../../../domain/orders/order-actions.js';
import { rerouteLine } from '../../../../domain/orders/reroute.js';
import { recordRefund } from '../../../../domain/orders/returns-refund.js';
import { requestReturn } from '../../../../domain/orders/returns.js';
import { changeOrder } from '../../../admin/orders/operator.js';
import { field, formAction } from '../../components.js';
import { sellerOf } from '../../session.js';

/**
 * The order page's actions: each a POST form (CSRF checked by the console scope) that runs the same domain
 * function as its /admin route, in one transaction, then redirects back to the order with a flash message.
 * A refusal of the domain (400/404/409) becomes the flash; the order is unchanged.
 */

type Params = { orderNumber: string };
type Action = (tx: Tx, accountId: number, orderNumber: string, body: unknown, now: Date) => Promise<unknown>;

/** A form's whole number of at least 1; `what` names it as the form does ("Units to cancel"). */
function positiveInt(what: string, raw: string): number {
  const value = /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(value) || value < 1) throw invalidArgument(`${what}: type a whole number, 1 or more.`);
  return value;
}

/** The reason box, required by cancel and resolve as by their /admin routes. */
function reasonOf(body: unknown, name: string): string {
  const reason = field(body, name).trim();
  if (reason === '') throw invalidField(name, 'must not be empty').because('order.reason_missing', {});
  return reason;
}

function onOrder(change: (tx: Tx, accountId: number, orderId: number, body: unknown, now: Date) => Promise<unknown>): Action {
  return (tx, accountId, orderNumber, body, now) => changeOrder(tx, accountId, orderNumber, (orderId) => change(tx, accountId, orderId, body, now));
}

const cancel = onOrder((tx, accountId, orderId, body, now) => {
  const lines = Object.entries(body && typeof body === 'object' ? (body as Record<string, unknown>) : {})
    .filter(([k, v]) => /^qty_\d{1,15}$/.test(k) && typeof v === 'string' && v.trim() !== '' && v.trim() !== '0')
    .map(([k, v]) => ({ lineId: Number(k.slice(4)), quantity: positiveInt('Units to cancel', v as string) }));
  if (lines.length === 0) throw invalidArgument('Type how many units to cancel on at least one line.');
  const reason = reasonOf(body, 'reason');
  return cancelOrderUnits(tx, {
    accountId,
    orderId,
    lines,
    reason,
    fulfillmentReason: 'CANCELLATION_REASON_MERCHANT_CANCELLED',
    linesField: 'units',
    now,
    fulfillment: fulfillmentPort,
  });
});

const reroute = onOrder((tx, accountId, orderId, body, now) => {
  const [line, from] = field(body, 'route').split(':');
  return rerouteLine(
    tx,
    accountId,
    orderId,
    {
      lineId: positiveInt('Units to move', line ?? ''),
      fromWarehouseId: positiveInt('Units to move', from ?? ''),
      toWarehouseId: positiveInt('Move to', field(body, 'toWarehouseId')),
      quantity: positiveInt('Units', field(body, 'quantity')),
    },
    now,
    fulfillmentPort,
  );
});

const recordReturn = onOrder((tx, accountId, orderId, body, now) => {
  const refundAmount = field(body, 'refundAmount').trim();
  const channelReturnId = field(body, 'channelReturnId').trim();
  return requestReturn(
    tx,
    accountId,
    orderId,
    {
      channelReturnId: channelReturnId === '' ? undefined : channelReturnId,
      items: [{ lineId: positiveInt('Line', field(body, 'lineItemId')), quantity: positiveInt('Units', field(body, 'quantity')), refundAmount: refundAmount === '' ? undefined : refundAmount }],
    },
    now,
  );
});

const refund = onOrder((tx, accountId, orderId, body, now) => {
  const line = field(body, 'lineItemId');
  return recordRefund(tx, accountId, orderId, { amount: field(body, 'amount').trim(), reason: field(body, 'reason'), lineId: line === '' ? undefined : positiveInt('Line', line) }, now);
});

const markPaid: Action = (tx, accountId, orderNumber, _body, now) => markOrderPaid(tx, sellerPrincipalFor(accountId), orderNumber, now);

function post(scope: FastifyInstance, deps: Deps, path: string, ok: string, action: Action): void {
  scope.post<{ Params: Params }>(`/orders/:orderNumber${path}`, { schema: { hide: true } }, async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const { orderNumber } = request.params;
    const back = `/console/orders/${encodeURIComponent(orderNumber)}`;
    return formAction(deps, request, reply, back, ok, async () => {
      await withTx(deps.db.db, (tx) => action(tx, user.accountId, orderNumber, request.body, deps.clock.now()));
    });
  });
}

export function registerSellerOrderActions(scope: FastifyInstance, deps: Deps): void {
  post(scope, deps, '/cancel', 'Units cancelled.', cancel);
  post(scope, deps, '/reroute', 'Units re-routed.', reroute);
  post(scope, deps, '/mark-paid', 'Order marked paid.', markPaid);
  post(scope, deps, '/returns', 'Return recorded.', recordReturn);
  post(scope, deps, '/refunds', 'Refund recorded.', refund);
  scope.post<{ Params: Params & { alertId: string } }>('/orders/:orderNumber/alerts/:alertId/resolve', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const back = `/console/orders/${encodeURIComponent(request.params.orderNumber)}`;
    return formAction(deps, request, reply, back, 'Alert resolved.', async () => {
      const alertId = positiveInt('Alert', request.params.alertId);
      const resolution = reasonOf(request.body, 'resolution');
      const { alreadyResolved } = await withTx(deps.db.db, (tx) => resolveSellerAlert(tx, user.accountId, alertId, resolution, deps.clock.now()));
      return alreadyResolved ? 'That alert was already resolved.' : undefined;
    });
  });
}
