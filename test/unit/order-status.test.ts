import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deriveLineStatus, deriveOrderStatus, deriveStatuses, owedUnits, type LineFacts, type OrderFacts } from '../../src/domain/orders/status.js';
import { accountingFacts, lineTotal, orderRefundTotal, orderTotal, refundsCover } from '../../src/domain/orders/refund-totals.js';

/** A line of `quantity` units at `unitPrice`, nothing shipped, cancelled, returned or refunded unless given. */
function line(quantity: number, extra: Partial<LineFacts> = {}): LineFacts {
  return { quantity, cancelQuantity: 0, shippedQuantity: 0, returnedQuantity: 0, unitPrice: '10', refund: null, onOpenReturn: false, ...extra };
}

function order(lines: LineFacts[], extra: Partial<OrderFacts> = {}): OrderFacts {
  return { paid: true, payment: null, orderRefund: null, lines, ...extra };
}

describe('order status derivation (resolutions §6, third review)', () => {
  it('fulfillment first: quantities decide while units are owed', () => {
    assert.equal(deriveOrderStatus(order([line(2)])), 'PENDING');
    assert.equal(deriveOrderStatus(order([line(2)], { paid: false })), 'PENDING_PAYMENT');
    assert.equal(deriveOrderStatus(order([line(2, { shippedQuantity: 1 })])), 'PARTIALLY_SHIPPED');
    assert.equal(deriveOrderStatus(order([line(2, { shippedQuantity: 2 }), line(1)])), 'PARTIALLY_SHIPPED');
    assert.equal(deriveOrderStatus(order([line(2, { shippedQuantity: 1, cancelQuantity: 1 })])), 'SHIPPED');
    assert.equal(deriveOrderStatus(order([line(2, { cancelQuantity: 2 }), line(1, { cancelQuantity: 1 })])), 'CANCELLED');
    assert.equal(deriveOrderStatus(order([line(2, { cancelQuantity: 1 })])), 'PENDING', 'one unit still owed');
  });

  it('a partial refund on an unshipped order changes nothing (the issue: a 5 refund made a 2-line order REFUNDED)', () => {
    const facts = order([line(1, { refund: '5' }), line(3)]);
    assert.deepEqual(deriveStatuses(facts), { order: 'PENDING', lines: ['PENDING', 'PENDING'] });
    assert.equal(deriveOrderStatus({ ...facts, paid: false }), 'PENDING_PAYMENT');
  });

  it('refunds covering the total leave an order that still owes units in its fulfillment status', () => {
    const facts = order([line(1, { refund: '10' }), line(3, { shippedQuantity: 1 })], { orderRefund: '30' });
    assert.deepEqual(deriveStatuses(facts), { order: 'PARTIALLY_SHIPPED', lines: ['PENDING', 'PARTIALLY_SHIPPED'] });
  });

  it('REFUNDED once nothing is owed and order-level plus line refunds reach the total', () => {
    const shipped = [line(1, { shippedQuantity: 1, refund: '10' }), line(3, { shippedQuantity: 3 })];
    assert.equal(deriveOrderStatus(order(shipped)), 'SHIPPED', '10 of 40 refunded');
    assert.equal(deriveOrderStatus(order(shipped, { orderRefund: '29.99' })), 'SHIPPED', '39.99 of 40');
    assert.equal(deriveOrderStatus(order(shipped, { orderRefund: '30' })), 'REFUNDED', '10 + 30 = 40');
    assert.equal(deriveOrderStatus(order(shipped, { orderRefund: '30', payment: '45.5' })), 'SHIPPED', 'payment is the total when given');
    assert.equal(deriveOrderStatus(order(shipped, { orderRefund: '35.5', payment: '45.5' })), 'REFUNDED');
    // The fully refunded line is REFUNDED itself; the other line is only shipped.
    assert.deepEqual(deriveStatuses(order(shipped)).lines, ['REFUNDED', 'SHIPPED']);
  });

  it('returns: RETURN_REQUESTED and RETURNED only once nothing is owed', () => {
    const owing = [line(2, { shippedQuantity: 1, onOpenReturn: true }), line(1)];
    assert.deepEqual(deriveStatuses(order(owing)), { order: 'PARTIALLY_SHIPPED', lines: ['PARTIALLY_SHIPPED', 'PENDING'] });
    const received = [line(2, { shippedQuantity: 1, returnedQuantity: 1 }), line(1)];
    assert.deepEqual(deriveStatuses(order(received)), { order: 'PARTIALLY_SHIPPED', lines: ['PARTIALLY_SHIPPED', 'PENDING'] });

    const allShipped = [line(2, { shippedQuantity: 2, onOpenReturn: true }), line(1, { shippedQuantity: 1 })];
    assert.deepEqual(deriveStatuses(order(allShipped)), { order: 'RETURN_REQUESTED', lines: ['RETURN_REQUESTED', 'SHIPPED'] });
    const partlyBack = [line(2, { shippedQuantity: 2, returnedQuantity: 1 }), line(1, { shippedQuantity: 1 })];
    assert.equal(deriveOrderStatus(order(partlyBack)), 'SHIPPED');
    const allBack = [line(2, { shippedQuantity: 2, returnedQuantity: 2 }), line(1, { shippedQuantity: 1, returnedQuantity: 1 })];
    assert.deepEqual(deriveStatuses(order(allBack)), { order: 'RETURNED', lines: ['RETURNED', 'RETURNED'] });
    // Cancelled units are not owed and need no return.
    assert.equal(deriveOrderStatus(order([line(3, { shippedQuantity: 1, cancelQuantity: 2, returnedQuantity: 1 })])), 'RETURNED');
  });

  it('after-sale precedence: open return, then returned, then refunded, then cancelled / shipped', () => {
    const back = { shippedQuantity: 1, returnedQuantity: 1, refund: '10' };
    assert.equal(deriveOrderStatus(order([line(1, { ...back, onOpenReturn: true })])), 'RETURN_REQUESTED');
    assert.equal(deriveOrderStatus(order([line(1, back)])), 'RETURNED');
    assert.equal(deriveOrderStatus(order([line(1, { shippedQuantity: 1, refund: '10' })])), 'REFUNDED');
    assert.equal(deriveOrderStatus(order([line(1, { cancelQuantity: 1 })], { orderRefund: '10' })), 'REFUNDED', 'a cancelled order refunded in full');
    assert.equal(deriveOrderStatus(order([line(1, { cancelQuantity: 1 })], { orderRefund: '9' })), 'CANCELLED');
  });

  it('without a known total any refund counts as the whole (once nothing is owed)', () => {
    const unpriced = line(1, { unitPrice: null, shippedQuantity: 1 });
    assert.equal(deriveOrderStatus(order([unpriced])), 'SHIPPED');
    assert.equal(deriveOrderStatus(order([unpriced], { orderRefund: '0.01' })), 'REFUNDED');
    assert.equal(deriveLineStatus({ ...unpriced, refund: '1' }, true), 'REFUNDED');
    assert.equal(deriveLineStatus({ ...unpriced, refund: '0' }, true), 'SHIPPED', 'a zero refund is no refund');
  });

  it('owed units are neither shipped nor cancelled', () => {
    assert.equal(owedUnits(line(5, { shippedQuantity: 2, cancelQuantity: 1 })), 2);
    assert.equal(owedUnits(line(5, { shippedQuantity: 4, cancelQuantity: 1 })), 0);
  });
});

describe('refund totals (decimal, never floats)', () => {
  it('adds the order-level refund and every line refund exactly', () => {
    assert.equal(orderRefundTotal(null, [null, null]), null);
    assert.equal(orderRefundTotal('0.1', ['0.2', null]), '0.3');
    assert.equal(orderRefundTotal(null, ['5']), '5');
    assert.equal(orderRefundTotal('123456789012345678.123456789', ['0.876543211']), '123456789012345679');
  });

  it('the order total is the payment, else the priced lines', () => {
    assert.equal(orderTotal('37.50', [{ quantity: 2, unitPrice: '12.5' }]), '37.5');
    assert.equal(orderTotal(null, [{ quantity: 3, unitPrice: '0.1' }, { quantity: 1, unitPrice: null }]), '0.3');
    assert.equal(orderTotal(null, [{ quantity: 1, unitPrice: null }]), null);
    assert.equal(lineTotal({ quantity: 3, unitPrice: '19.99' }), '59.97');
  });

  it('refunds cover a total when positive and at least the total', () => {
    assert.equal(refundsCover('0.3', '0.3'), true);
    assert.equal(refundsCover('0.29', '0.3'), false);
    assert.equal(refundsCover(null, '0.3'), false);
    assert.equal(refundsCover('0', null), false);
    assert.equal(refundsCover('1', null), true);
  });

  it('reads payment and the order-level refund from the stored accounting', () => {
    assert.deepEqual(accountingFacts(null), { payment: null, orderRefund: null });
    assert.deepEqual(accountingFacts(JSON.stringify({ payment: '37.5', refund: '2', channelTax: '3' })), { payment: '37.5', orderRefund: '2' });
  });
});
