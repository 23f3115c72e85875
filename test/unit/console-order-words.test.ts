import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressLines, customerContact } from '../../src/http/console/seller/orders/customer-section.js';
import { lineImage } from '../../src/http/console/seller/orders/line-display.js';
import { alertTypeText, fulfillmentStatusText, messageInWords, orderStatusText, rejectionText } from '../../src/http/console/seller/orders/order-words.js';
import type { SalesOrderV1 } from '../../src/domain/orders/view.js';

describe('console order page: words, addresses and images', () => {
  it('says every status, reason and alert type in words, unknown ones included', () => {
    assert.equal(orderStatusText('PENDING_PAYMENT'), 'Awaiting payment');
    assert.equal(orderStatusText('SOMETHING_NEW'), 'Something new');
    assert.equal(fulfillmentStatusText('FULFILLMENT_ORDER_STATUS_REJECTED'), 'Rejected by the shipper');
    assert.equal(alertTypeText('ALERT_TYPE_LATE_SHIPMENT'), 'Late shipment');
    assert.equal(alertTypeText('ALERT_TYPE_BRAND_NEW'), 'Brand new');
    assert.equal(rejectionText('REJECTION_REASON_DAMAGED', 'crushed'), 'Damaged: crushed');
    assert.equal(rejectionText(null, null), '–');
    assert.equal(messageInWords('Rejected (REJECTION_REASON_OUT_OF_STOCK: none left).'), 'Rejected (out of stock: none left).');
  });

  it('writes an address as lines, leaving out what is missing (a redacted one keeps its country only)', () => {
    assert.deepEqual(addressLines({ name: 'Ada', company: null, addressLine1: '1 Main St', addressLine2: '', city: 'Springfield', state: 'IL', postalCode: '62701', countryCode: 'US' }), [
      'Ada',
      '1 Main St',
      'Springfield IL 62701',
      'United States',
    ]);
    assert.deepEqual(addressLines({ countryCode: 'DE' }), ['Germany']);
    assert.deepEqual(addressLines(null), []);
    const order = { customerName: null, customerEmail: null, shippingAddress: { name: 'Ada', phone: ' +1 555 ' }, billingAddress: { email: 'bill@example.com' } } as unknown as SalesOrderV1;
    assert.deepEqual(customerContact(order), { name: 'Ada', email: 'bill@example.com', phone: '+1 555' });
  });

  it("shows the service's own images, links to other sites' and drops anything else", () => {
    assert.deepEqual(lineImage('/console/assets/mug.png'), { kind: 'img', src: '/console/assets/mug.png' });
    assert.deepEqual(lineImage('data:image/png;base64,iVBORw0KGgo='), { kind: 'img', src: 'data:image/png;base64,iVBORw0KGgo=' });
    assert.deepEqual(lineImage('https://cdn.example.com/a b.jpg'), { kind: 'link', href: 'https://cdn.example.com/a%20b.jpg' });
    for (const bad of ['//evil.example/x.png', 'javascript:alert(1)', 'data:text/html;base64,PHA+', 'not a url', '', null]) assert.equal(lineImage(bad), null, String(bad));
  });
});
