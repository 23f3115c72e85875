// Requests and errors (README.md "Requests" and "Errors"). The README shows the regions marked below, word for
// word (test/client/examples.test.ts checks that), and runs these functions against the service.
// #region readme:import
import { ApiError, createClient, type Client } from '@mcs/partner-client';
// #endregion

/** A sales channel sends an order, reads it back and lists the account's pending orders (a storefront token). */
export async function placeOrder(baseUrl: string, accessToken: string, channelOrderId: string) {
  // #region readme:requests
  const api = createClient({ baseUrl, accessToken, retryOn429: 3 });

  const { results: warehouses } = await api.get('/v1/warehouses');
  const order = await api.post('/v1/salesOrder', {
    body: { channelOrderId, orderTs: new Date().toISOString(), products: [{ requestedSku: 'SKU-1', quantity: 1 }] },
  });
  const same = await api.get('/v1/salesOrder/{orderNumber}', { path: { orderNumber: order.orderNumber } });
  const pending = await api.get('/v1/salesOrder', { query: { status: ['PENDING'], pageLength: 50 } });
  // #endregion
  return { warehouses, order, same, pending };
}

/** An order number the account does not have answers 404: its reference id, or undefined when found. */
export async function missingOrderReference(api: Client, orderNumber: string): Promise<string | undefined> {
  // #region readme:errors
  try {
    await api.get('/v1/salesOrder/{orderNumber}', { path: { orderNumber } });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return e.v1?.referenceId; // {errorCode, errorMessages, referenceId}
    throw e;
  }
  // #endregion
  return undefined;
}
