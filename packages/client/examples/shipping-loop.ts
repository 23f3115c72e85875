// A whole shipping integration loop (README.md "A whole integration loop", which shows the region below word
// for word): poll need_to_ship, acknowledge new orders, ship them. test/client/examples.test.ts runs it against
// the service.
// #region readme:shipping-loop
import { ApiError, createClient, itemsV2 } from '@mcs/partner-client';

export async function syncOnce(baseUrl: string, accessToken: string): Promise<void> {
  const api = createClient({ baseUrl, accessToken, retryOn429: 3 });
  for await (const fo of itemsV2(api, '/v2/shipping/need_to_ship', 'orders', { query: { pageSize: 100 } })) {
    if (fo.status === 'FULFILLMENT_ORDER_STATUS_NEW') {
      const [ack] = (
        await api.post('/v2/shipping/fulfillment_orders/acknowledge', {
          body: { acknowledgements: [{ fulfillmentOrderId: fo.fulfillmentOrderId, externalOrderId: `WMS-${fo.orderNumber}` }] },
        })
      ).results;
      if (!ack?.success) console.warn(`acknowledge ${fo.fulfillmentOrderId}: ${ack?.errorMessage}`);
    }
    // ... pick and pack in the warehouse, then report the package (every owed line when `lines` is left out):
    try {
      const { results } = await api.post('/v2/shipping/shipments', {
        body: {
          shipments: [
            {
              fulfillmentOrderId: fo.fulfillmentOrderId,
              externalShipmentId: `PKG-${fo.fulfillmentOrderId}`, // the replay key: sending it again changes nothing
              carrier: 'UPS',
              trackingNumber: '1Z999AA10123456784',
              serviceLevel: 'Ground',
              shippedTs: new Date().toISOString(),
            },
          ],
        },
      });
      if (!results[0]?.success) console.warn(`ship ${fo.fulfillmentOrderId}: ${results[0]?.errorMessage}`);
    } catch (e) {
      if (e instanceof ApiError) console.error(e.status, e.v2?.code, e.v2?.message);
      else throw e;
    }
  }
}
// #endregion
