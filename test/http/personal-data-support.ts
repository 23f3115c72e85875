import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/app.js';
import { bearer, type SeededAccount } from '../helpers/fixtures.js';
import type { Order } from './v1-sales-orders-helpers.js';

/** Shared by the personal-data tests: a buyer's full set of personal fields, and shipping an order in full. */
export function buyer(name: string, email: string) {
  const address = { name, company: 'Analytical Engines Ltd', addressLine1: '12 St James Square', addressLine2: 'Flat 3', city: 'London', state: 'LDN', postalCode: 'SW1Y 4JH', phone: '+44 20 7946 0000', email, countryCode: 'GB', type: 'residential' };
  return { customerName: name, customerEmail: email, customer_notes: `Please ring twice, ${name}`, shippingAddress: address, billingAddress: { ...address, addressLine1: '1 Billing Row' } };
}

export async function shipAll(t: TestApp, seed: SeededAccount, o: Order, shippedTs: string, id = `PKG-${o.orderNumber}`): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/salesOrder/shipments',
    headers: bearer(seed.sellerToken),
    payload: {
      packages: [
        {
          orderNumber: o.orderNumber,
          fulfillmentPackageId: id,
          warehouseId: seed.warehouses.main,
          carrier: 'UPS',
          tracking: `1Z-${id}`,
          service_level: 'Ground',
          shippedTs,
          shippedTo: { name: 'Package Addressee Lovelace', addressLine1: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', countryCode: 'GB' },
          products: o.products.map((l) => ({ lineItemId: l.lineItemId, quantity: l.quantity })),
        },
      ],
    },
  });
  assert.equal(res.statusCode, 200, res.body);
}

