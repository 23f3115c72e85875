import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx, type Tx } from '../../../../db/tx.js';
import { sellerPrincipalFor } from '../../../../domain/accounts/principal.js';
import { invalidArgument } from '../../../../domain/errors.js';
import { fulfillmentPort } from '../../../../domain/fulfillment/port.js';
import { resolveSellerAlert } from '../../../../domain/fulfillment/seller-alerts.js';
import { cancelOrderUnits } from '../../../../domain/orders/cancel.js';
import { markOrderPaid } from '../../../../domain/orders/order-actions.js';
import { rerouteLine } from '../../../../domain/orders/reroute.js';
import { recordRefund } from '../../../../domain/orders/returns-refund.js';
import { requestReturn } from '../../../../domain/orders/returns.js';
import { ResolveBody } from '../../../admin/alerts/schemas.js';
import { CancelOrderBody } from '../../../admin/orders/cancel-order.js';
import { changeOrder } from '../../../admin/orders/operator.js';
import { RecordRefundBody } from '../../../admin/orders/record-refund.js';
import { RequestReturnBody } from '../../../admin/orders/request-return.js';
import { RerouteLineBody } from '../../../admin/orders/reroute-line.js';
import { lineIdOf } from '../../../admin/orders/schemas.js';
import { field, formAction } from '../../components.js';
import { checkForm, formInt, type FormWords } from '../../form-check.js';
import { sellerOf } from '../../session.js';
import { ORDER_REFUSALS } from './order-words.js';

/**
 * The order page's actions: each a POST form (CSRF checked by the console scope) that runs the same domain
 * function as its /admin route, in one transaction, then redirects back to the order with a flash message.
 * Each form is checked by its /admin route's body schema first (form-check.ts), in the order page's words.
 * A refusal of the domain (400/404/409) becomes the flash; the order is unchanged.
 */

type Params = { orderNumber: string };
type Action = (tx: Tx, accountId: number, orderNumber: string, body: unknown, now: Date) => Promise<unknown>;

/** The alert of a path, as a whole number (a malformed one is refused as the flash, not a missing page). */
function positiveInt(what: string, raw: string): number {
  const value = /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(value) || value < 1) throw invalidArgument(`${what}: type a whole number, 1 or more.`);
  return value;
}

/** What a count box of the order page says when it holds no whole number of at least 1; `what` is its label. */
const wholeNumber = (what: string) => ({ says: `${what}: type a whole number, 1 or more.` });

/** The reason boxes, required by cancel, refund and resolve as by their /admin routes. */
const reasonWords = { blank: ORDER_REFUSALS['order.reason_missing']({}) };

/** The body schemas of the /admin order routes, in the order page's words. */
const CANCEL_WORDS: FormWords = { 'lineItems.quantity': wholeNumber('Units to cancel'), 'lineItems.lineItemId': wholeNumber('Units to cancel'), reason: reasonWords };
const REROUTE_WORDS: FormWords = {
  lineItemId: wholeNumber('Units to move'),
  fromWarehouseId: wholeNumber('Units to move'),
  toWarehouseId: wholeNumber('Move to'),
  quantity: wholeNumber('Units'),
};
const RETURN_WORDS: FormWords = { 'items.lineItemId': wholeNumber('Line'), 'items.quantity': wholeNumber('Units'), 'items.refundAmount': 'Refund amount', channelReturnId: 'Channel return id' };
const REFUND_WORDS: FormWords = { lineItemId: wholeNumber('Line'), amount: { says: ORDER_REFUSALS['order.amount_not_a_number']({}) }, reason: reasonWords };
const RESOLVE_WORDS: FormWords = { resolution: reasonWords };

/** A box the seller may leave empty: only what was typed goes in the body. */
const typed = (name: string, text: string): Record<string, string> => (text.trim() === '' ? {} : { [name]: text.trim() });

function onOrder(change: (tx: Tx, accountId: number, orderId: number, body: unknown, now: Date) => Promise<unknown>): Action {
  return (tx, accountId, orderNumber, body, now) => changeOrder(tx, accountId, orderNumber, (orderId) => change(tx, accountId, orderId, body, now));
}

const cancel = onOrder((tx, accountId, orderId, body, now) => {
  // One "qty_<lineItemId>" box per line; a line left empty or at 0 is not cancelled.
  const lineItems = Object.entries(body && typeof body === 'object' ? (body as Record<string, unknown>) : {})
    .filter(([k, v]) => /^qty_\d{1,15}$/.test(k) && typeof v === 'string' && v.trim() !== '' && v.trim() !== '0')
    .map(([k, v]) => ({ lineItemId: k.slice(4), quantity: formInt(v as string) }));
  // The API cancels every unit when no line is given; the form has no such choice.
  if (lineItems.length === 0) throw invalidArgument('Type how many units to cancel on at least one line.');
  const input = checkForm(CancelOrderBody, { reason: field(body, 'reason').trim(), lineItems }, CANCEL_WORDS);
  return cancelOrderUnits(tx, {
    accountId,
    orderId,
    lines: (input.lineItems ?? []).map((l) => ({ lineId: lineIdOf(l.lineItemId), quantity: l.quantity })),
    reason: input.reason,
    fulfillmentReason: 'CANCELLATION_REASON_MERCHANT_CANCELLED',
    linesField: 'units',
    now,
    fulfillment: fulfillmentPort,
  });
});

const reroute = onOrder((tx, accountId, orderId, body, now) => {
  // The "route" choice names the line and the warehouse its units are in now: "<lineItemId>:<warehouseId>".
  const [line = '', from = ''] = field(body, 'route').split(':');
  const input = checkForm(
    RerouteLineBody,
    { lineItemId: line.trim(), fromWarehouseId: formInt(from), toWarehouseId: formInt(field(body, 'toWarehouseId')), quantity: formInt(field(body, 'quantity')) },
    REROUTE_WORDS,
  );
  return rerouteLine(tx, accountId, orderId, { ...input, lineId: lineIdOf(input.lineItemId) }, now, fulfillmentPort);
});

const recordReturn = onOrder((tx, accountId, orderId, body, now) => {
  const item = { lineItemId: field(body, 'lineItemId').trim(), quantity: formInt(field(body, 'quantity')), ...typed('refundAmount', field(body, 'refundAmount')) };
  const input = checkForm(RequestReturnBody, { ...typed('channelReturnId', field(body, 'channelReturnId')), items: [item] }, RETURN_WORDS);
  const items = input.items.map((i) => ({ lineId: lineIdOf(i.lineItemId), quantity: i.quantity, refundAmount: i.refundAmount }));
  return requestReturn(tx, accountId, orderId, { channelReturnId: input.channelReturnId, items }, now);
});

const refund = onOrder((tx, accountId, orderId, body, now) => {
  const input = checkForm(RecordRefundBody, { amount: field(body, 'amount').trim(), reason: field(body, 'reason'), ...typed('lineItemId', field(body, 'lineItemId')) }, REFUND_WORDS);
  return recordRefund(tx, accountId, orderId, { amount: input.amount, reason: input.reason, lineId: input.lineItemId === undefined ? undefined : lineIdOf(input.lineItemId) }, now);
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
      const { resolution } = checkForm(ResolveBody, { resolution: field(request.body, 'resolution').trim() }, RESOLVE_WORDS);
      const { alreadyResolved } = await withTx(deps.db.db, (tx) => resolveSellerAlert(tx, user.accountId, alertId, resolution, deps.clock.now()));
      return alreadyResolved ? 'That alert was already resolved.' : undefined;
    });
  });
}
