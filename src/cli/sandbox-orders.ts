import type { Tx } from '../db/tx.js';
import { sellerPrincipalFor, type Principal } from '../domain/accounts/principal.js';
import type { SandboxSummary } from '../domain/sandbox-partner/sandbox.js';
import { fulfillmentPort } from '../domain/fulfillment/port.js';
import { createSalesOrder, type CreateOrderInput } from '../domain/orders/create-order.js';
import { findVisibleOrder } from '../domain/orders/find-order.js';
import { recordV1Shipments } from '../domain/orders/packages-v1.js';
import { requestReturn } from '../domain/orders/returns.js';
import { receiveReturn } from '../domain/orders/returns-receive.js';
import { recordRefund } from '../domain/orders/returns-refund.js';
import { multiply, sum } from '../lib/decimal.js';
import { SANDBOX_PRODUCTS } from './sandbox-catalog.js';

/**
 * The sandbox's orders, one in every state a seller works with: to ship, backordered, partly shipped,
 * shipped, returned and refunded. Each is sent by the sandbox storefront through createSalesOrder (POST
 * /v1/salesOrder), then moved on by the seller with the functions behind POST /v1/salesOrder/shipments and
 * the console's return, receive and refund actions, so the statuses are derived exactly as for any order.
 * Runs in the sandbox's transaction: the whole sandbox exists, orders included, or nothing does.
 */

export type SandboxOrderState = 'to ship' | 'backordered' | 'partly shipped' | 'shipped' | 'returned' | 'refunded';

interface OrderPlan {
  state: SandboxOrderState;
  channelOrderId: string;
  daysAgo: number;
  customer: { name: string; email: string; phone: string; addressLine1: string; city: string; state: string; postalCode: string };
  lines: { sku: string; quantity: number }[];
  /** SKUs shipped in full from Main. */
  ship?: string[];
  returnAll?: boolean;
  refundAll?: string;
}

const PLANS: readonly OrderPlan[] = [
  {
    state: 'to ship',
    channelOrderId: 'SB-1001',
    daysAgo: 0,
    customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+1 555 0101', addressLine1: '12 Analytical Way', city: 'Portland', state: 'OR', postalCode: '97201' },
    lines: [{ sku: 'SANDBOX-TOWEL', quantity: 2 }, { sku: 'SANDBOX-BEANS', quantity: 1 }],
  },
  {
    state: 'backordered',
    channelOrderId: 'SB-1002',
    daysAgo: 1,
    customer: { name: 'Grace Hopper', email: 'grace@example.com', phone: '+1 555 0102', addressLine1: '9 Compiler Street', city: 'Arlington', state: 'VA', postalCode: '22201' },
    lines: [{ sku: 'SANDBOX-KETTLE', quantity: 2 }],
  },
  {
    state: 'partly shipped',
    channelOrderId: 'SB-1003',
    daysAgo: 2,
    customer: { name: 'Alan Turing', email: 'alan@example.com', phone: '+1 555 0103', addressLine1: '4 Bletchley Road', city: 'Boston', state: 'MA', postalCode: '02110' },
    lines: [{ sku: 'SANDBOX-GRINDER', quantity: 1 }, { sku: 'SANDBOX-BEANS', quantity: 2 }],
    ship: ['SANDBOX-GRINDER'],
  },
  {
    state: 'shipped',
    channelOrderId: 'SB-1004',
    daysAgo: 4,
    customer: { name: 'Katherine Johnson', email: 'katherine@example.com', phone: '+1 555 0104', addressLine1: '21 Orbit Avenue', city: 'Hampton', state: 'VA', postalCode: '23666' },
    lines: [{ sku: 'SANDBOX-TOWEL', quantity: 3 }],
    ship: ['SANDBOX-TOWEL'],
  },
  {
    state: 'returned',
    channelOrderId: 'SB-1005',
    daysAgo: 9,
    customer: { name: 'Edsger Dijkstra', email: 'edsger@example.com', phone: '+1 555 0105', addressLine1: '7 Shortest Path', city: 'Austin', state: 'TX', postalCode: '78701' },
    lines: [{ sku: 'SANDBOX-TEAPOT', quantity: 1 }],
    ship: ['SANDBOX-TEAPOT'],
    returnAll: true,
  },
  {
    state: 'refunded',
    channelOrderId: 'SB-1006',
    daysAgo: 12,
    customer: { name: 'Barbara Liskov', email: 'barbara@example.com', phone: '+1 555 0106', addressLine1: '3 Substitution Lane', city: 'Cambridge', state: 'MA', postalCode: '02139' },
    lines: [{ sku: 'SANDBOX-BEANS', quantity: 1 }],
    ship: ['SANDBOX-BEANS'],
    refundAll: 'Arrived damaged',
  },
];

export interface SandboxOrder {
  state: SandboxOrderState;
  orderNumber: string;
  channelOrderId: string;
}

/** The storefront's principal, as its access token authenticates (the token is not committed yet). */
async function storefrontPrincipal(tx: Tx, summary: SandboxSummary): Promise<Principal> {
  const channel = summary.apps.find((a) => a.storefrontId !== null)!;
  const token = await tx
    .selectFrom('access_tokens')
    .select('id')
    .where('account_id', '=', summary.account.accountId)
    .where('installation_id', '=', channel.installationId)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return {
    ...sellerPrincipalFor(summary.account.accountId),
    tokenId: token.id,
    appId: channel.appId,
    appName: channel.name,
    installationId: channel.installationId,
    kind: 'SALES_CHANNEL',
    scopes: new Set(channel.scopes),
    storefrontId: channel.storefrontId,
    storefrontName: channel.storefrontName,
  };
}

export async function seedSandboxOrders(tx: Tx, summary: SandboxSummary, now: Date): Promise<SandboxOrder[]> {
  const accountId = summary.account.accountId;
  const seller = sellerPrincipalFor(accountId);
  const storefront = await storefrontPrincipal(tx, summary);
  const main = summary.warehouses.find((w) => w.key === 'main')!.warehouseId;
  const productOf = (sku: string) => SANDBOX_PRODUCTS.find((p) => p.sku === sku)!;
  const orders: SandboxOrder[] = [];
  for (const plan of PLANS) {
    // Placed days ago (at least a minute, so the shipments recorded now are after it), spread over the home chart.
    const orderTs = new Date(now.getTime() - plan.daysAgo * 86_400_000 - 3_600_000).toISOString();
    const address = { ...plan.customer, countryCode: 'US' };
    const input: CreateOrderInput = {
      channelOrderId: plan.channelOrderId,
      orderTs,
      customerName: plan.customer.name,
      customerEmail: plan.customer.email,
      requestedServiceLevel: 'Standard',
      shippingAddress: address,
      billingAddress: address,
      products: plan.lines.map((l, i) => ({
        requestedSku: l.sku,
        quantity: l.quantity,
        channelLineItemId: `${plan.channelOrderId}-${i + 1}`,
        title: productOf(l.sku).title,
        unitPrice: productOf(l.sku).price,
      })),
    };
    const { order } = await createSalesOrder(tx, storefront, input, now, fulfillmentPort);
    const orderNumber = order.orderNumber;
    if (plan.ship) {
      const shipped = plan.lines.filter((l) => plan.ship!.includes(l.sku));
      await recordV1Shipments(
        tx,
        seller,
        [
          {
            orderNumber,
            fulfillmentPackageId: `PKG-${plan.channelOrderId}`,
            warehouseId: main,
            carrier: 'UPS',
            tracking: `1ZSANDBOX${orderNumber.padStart(8, '0')}`,
            service_level: 'Ground',
            products: shipped.map((l) => ({ sku: l.sku, quantity: l.quantity })),
          },
        ],
        now,
      );
    }
    const orderId = (await findVisibleOrder(tx, seller, orderNumber)).order.id;
    const lineIds = order.products.map((p) => Number(p.lineItemId));
    if (plan.returnAll) {
      const returnId = await requestReturn(
        tx,
        accountId,
        orderId,
        { channelReturnId: `RMA-${plan.channelOrderId}`, items: plan.lines.map((l, i) => ({ lineId: lineIds[i]!, quantity: l.quantity })) },
        now,
      );
      // Received back into Main: the units are on hand again.
      await receiveReturn(tx, accountId, orderId, returnId, { restockWarehouseId: main }, now);
    }
    if (plan.refundAll) {
      const total = sum(plan.lines.map((l) => multiply(productOf(l.sku).price, l.quantity)));
      await recordRefund(tx, accountId, orderId, { amount: total, reason: plan.refundAll }, now);
    }
    orders.push({ state: plan.state, orderNumber, channelOrderId: plan.channelOrderId });
  }
  return orders;
}
