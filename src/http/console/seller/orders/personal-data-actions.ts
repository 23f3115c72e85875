import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { permissionDenied } from '../../../../domain/errors.js';
import { findVisibleOrder } from '../../../../domain/orders/find-order.js';
import { sellerPrincipalFor } from '../../../../domain/accounts/principal.js';
import { eraseBuyerPersonalData } from '../../../../domain/personal-data/erase-buyer.js';
import { eraseOrderPersonalData } from '../../../../domain/personal-data/erase-order.js';
import { formAction } from '../../components.js';
import { sellerOf, type SellerUser } from '../../session.js';
import { customerContact } from './customer-section.js';
import { loadSellerOrder } from './load-order.js';

/**
 * The order page's erasure actions (issue 29, resolutions §10), the console's side of
 * POST /admin/accounts/{id}/personal-data/erase: erase this order's buyer data, or every order of the buyer's
 * email (the order's own, read on the server: the form carries no personal data). Closed orders are erased at
 * once, open ones when they close. Owners only: an erasure cannot be undone. The audit entry names the user.
 */

type Params = { orderNumber: string };

/** Who the audit entry names: the console user (a seller's staff, not the buyer). */
const requester = (user: SellerUser) => `console user ${user.userId}`;

function ownerOnly(user: SellerUser): void {
  if (user.role !== 'OWNER') throw permissionDenied("only an account owner can erase a buyer's personal data");
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function registerSellerPersonalDataActions(scope: FastifyInstance, deps: Deps): void {
  scope.post<{ Params: Params }>('/orders/:orderNumber/erase-personal-data', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const back = `/console/orders/${encodeURIComponent(request.params.orderNumber)}`;
    return formAction(deps, request, reply, back, "The buyer's personal data was erased from this order.", async () => {
      ownerOnly(user);
      const outcome = await withTx(deps.db.db, async (tx) => {
        // Another account's order number is not found, as everywhere.
        const { order } = await findVisibleOrder(tx, sellerPrincipalFor(user.accountId), request.params.orderNumber);
        return eraseOrderPersonalData(tx, user.accountId, order.id, requester(user), deps.clock.now());
      });
      if (outcome === 'pending') return "Erasure recorded: the buyer's personal data goes as soon as this order is done.";
      if (outcome === 'already-redacted') return "The buyer's personal data was already erased from this order.";
      return undefined;
    });
  });

  scope.post<{ Params: Params }>('/orders/:orderNumber/erase-buyer', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const back = `/console/orders/${encodeURIComponent(request.params.orderNumber)}`;
    return formAction(deps, request, reply, back, "The buyer's personal data was erased.", async () => {
      ownerOnly(user);
      const { order } = await loadSellerOrder(deps.db.db, user.accountId, request.params.orderNumber);
      const email = customerContact(order).email;
      if (email === null) return 'This order has no buyer email to look for; erase it from this order instead.';
      const result = await eraseBuyerPersonalData(deps.db.db, user.accountId, email, requester(user), () => deps.clock.now());
      const waiting = `${plural(result.pendingOrders, 'open order')} of this buyer will be erased as soon as they are done.`;
      if (result.redactedOrders === 0) return result.pendingOrders === 0 ? 'No order of this buyer still holds personal data.' : `Erasure recorded: ${waiting}`;
      return `Erased from ${plural(result.redactedOrders, 'order')} of this buyer.${result.pendingOrders > 0 ? ` ${waiting}` : ''}`;
    });
  });
}
