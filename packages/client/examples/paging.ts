// Paging (README.md "Paging"). The README shows the regions marked below, word for word, and
// test/client/examples.test.ts runs these functions against the service.
import { itemsV1, itemsV2, pagesV1, pagesV2, type Client } from '@mcs/partner-client';

/** The account's orders updated since `since` (page sizes, then every order number), with a seller token. */
export async function ordersSince(api: Client, since: string) {
  // #region readme:paging-v1
  // v1: pagination.nextToken is the absolute URL of the next page, fetched as is; "" on the last page.
  const pageSizes: number[] = [];
  for await (const page of pagesV1(api, '/v1/salesOrder', { query: { pageLength: 100, lastUpdatedTs: since } })) {
    pageSizes.push(page.results.length);
  }
  const orderNumbers: string[] = [];
  for await (const order of itemsV1(api, '/v1/salesOrder', { query: { pageLength: 100, lastUpdatedTs: since } })) {
    orderNumbers.push(order.orderNumber);
  }
  // #endregion
  return { pageSizes, orderNumbers };
}

/** What a shipping integration owes (page sizes, then the fulfillment order ids), with its token. */
export async function owedFulfillmentOrders(api: Client) {
  // #region readme:paging-v2
  // v2: the same request again with only `cursor` changed to nextCursor / nextPageCursor, until it is "".
  const pageSizes: number[] = [];
  for await (const page of pagesV2(api, '/v2/shipping/need_to_ship', { query: { pageSize: 100 } })) {
    pageSizes.push(page.orders.length);
  }
  const owed: string[] = [];
  for await (const fo of itemsV2(api, '/v2/shipping/need_to_ship', 'orders', { query: { pageSize: 100 } })) {
    owed.push(fo.fulfillmentOrderId);
  }
  // #endregion
  return { pageSizes, owed };
}
