import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { invalidField } from '../../../../domain/errors.js';
import { closeReturn, type ReturnClosure } from '../../../../domain/orders/returns-close.js';
import { receiveReturn, type ReturnReceipt } from '../../../../domain/orders/returns-receive.js';
import { changeOrder } from '../../../admin/orders/operator.js';
import { ReceiveReturnBody } from '../../../admin/orders/receive-return.js';
import { formAction } from '../../components.js';
import { readForm } from '../../form-check.js';
import { sellerOf } from '../../session.js';

/**
 * The order page's return actions: receive a return (back in stock in a chosen warehouse, or not) and close
 * it. Each runs the same domain function as its /admin route in one transaction, then redirects back to the
 * order with a flash in the seller's words; a refusal (unknown or integration-controlled warehouse, a return
 * already received with another choice) is the flash, and nothing changes.
 */

type Params = { orderNumber: string; returnId: string };

function returnIdOf(raw: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw invalidField('return', 'is not a return of this order');
  return Number(raw);
}

/** The form's choice, checked by the /admin route's body schema: "" is null, not put back in stock. */
function restockChoice(body: unknown): number | null {
  const words = { restockWarehouseId: { says: 'Warehouse: choose a warehouse from the list, or not to restock' } };
  return readForm(ReceiveReturnBody, body, { blank: 'null', words }).restockWarehouseId ?? null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function receivedText(returnId: number, receipt: ReturnReceipt): string {
  if (receipt.alreadyReceived) return `Return ${returnId} was already received; nothing changed.`;
  if (receipt.restock === null) return `Return ${returnId} received. Its units were not put back in stock.`;
  const filled = receipt.backorderUnitsFilled > 0 ? ` ${plural(receipt.backorderUnitsFilled, 'unit')} went straight to orders waiting for them.` : '';
  return `Return ${returnId} received: ${plural(receipt.restock.units, 'unit')} back in stock at ${receipt.restock.warehouseName}.${filled}`;
}

function closedText(returnId: number, closure: ReturnClosure): string {
  if (closure.alreadyClosed) return `Return ${returnId} was already closed; nothing changed.`;
  return closure.cancelled ? `Return ${returnId} closed without being received: it is cancelled.` : `Return ${returnId} closed.`;
}

export function registerSellerReturnActions(scope: FastifyInstance, deps: Deps): void {
  scope.post<{ Params: Params }>('/orders/:orderNumber/returns/:returnId/receive', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const { orderNumber } = request.params;
    return formAction(deps, request, reply, `/console/orders/${encodeURIComponent(orderNumber)}`, 'Return received.', async () => {
      const returnId = returnIdOf(request.params.returnId);
      const restockWarehouseId = restockChoice(request.body);
      const now = deps.clock.now();
      let receipt: ReturnReceipt | undefined;
      await withTx(deps.db.db, (tx) =>
        changeOrder(tx, user.accountId, orderNumber, async (orderId) => {
          receipt = await receiveReturn(tx, user.accountId, orderId, returnId, { restockWarehouseId }, now);
        }),
      );
      return receivedText(returnId, receipt!);
    });
  });

  scope.post<{ Params: Params }>('/orders/:orderNumber/returns/:returnId/close', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const { orderNumber } = request.params;
    return formAction(deps, request, reply, `/console/orders/${encodeURIComponent(orderNumber)}`, 'Return closed.', async () => {
      const returnId = returnIdOf(request.params.returnId);
      const now = deps.clock.now();
      let closure: ReturnClosure | undefined;
      await withTx(deps.db.db, (tx) =>
        changeOrder(tx, user.accountId, orderNumber, async (orderId) => {
          closure = await closeReturn(tx, user.accountId, orderId, returnId, now);
        }),
      );
      return closedText(returnId, closure!);
    });
  });
}
