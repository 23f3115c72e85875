/**
 * The OpenAPI document's operationId of every route: what generated clients name their methods, so each is
 * unique and stable (a rename breaks every partner's generated code). One table, applied by the docs hook.
 *
 * - v2: the production service's rpc name (its published protocol definitions), so a client generated from
 *   this document and one generated from the production definitions agree. Routes the definitions do not
 *   bind to HTTP get the name the interface document or resolutions use, in the same style.
 * - v1, the token exchange and the health routes: the operation in camelCase.
 * - /admin: verb + noun made from the path (operationIdFromPath), so a new operator route gets one by itself.
 */
const NAMED: Record<string, string> = {
  // Health, metrics, OAuth.
  'GET /healthz': 'getHealth',
  'GET /readyz': 'getReadiness',
  'GET /metrics': 'getMetrics',
  'POST /v1/token': 'exchangeToken',
  // v1
  'GET /v1/warehouses': 'listWarehouses',
  'GET /v1/simpleInventory/{SKU}': 'getSimpleInventory',
  'GET /v1/inventory/{SKU}': 'getInventory',
  'GET /v1/inventory': 'listInventory',
  'POST /v1/inventory': 'updateInventory',
  'POST /v1/salesOrder': 'createSalesOrder',
  'GET /v1/salesOrder': 'listSalesOrders',
  'GET /v1/salesOrder/{orderNumber}': 'getSalesOrder',
  'POST /v1/salesOrder/accept/{orderNumber}': 'acceptSalesOrder',
  'POST /v1/salesOrder/markPaid/{orderNumber}': 'markSalesOrderPaid',
  'POST /v1/salesOrder/cancel/{orderNumber}': 'cancelSalesOrder',
  'POST /v1/salesOrder/{orderNumber}/confirmStatus': 'confirmSalesOrderStatus',
  'POST /v1/salesOrder/shipments': 'createSalesOrderShipments',
  'GET /v1/listing': 'listListings',
  'GET /v1/listing/{listingid}': 'getListing',
  'POST /v1/listing/submissions/{submissionID}/inventoryDetails': 'setSubmissionInventoryDetails',
  'POST /v1/listing/status': 'reportListingStatus',
  'GET /v1/customStores': 'listCustomStores',
  'POST /v1/report': 'createReport',
  'GET /v1/report': 'listReports',
  'GET /v1/report/{reportId}': 'getReport',
  'POST /v1/report/{reportId}/cancel': 'cancelReport',
  'GET /v1/report/{reportId}/file': 'getReportFile',
  'GET /v1/report/{reportId}/errors': 'getReportErrors',
  'POST /v1/import/validation/{importDefinitionId}': 'createImportValidation',
  'GET /v1/import/validation/results/{validationID}': 'getImportValidationResults',
  'POST /v1/inbound-shipment': 'createInboundShipment',
  'GET /v1/inbound-shipment': 'listInboundShipments',
  'GET /v1/inbound-shipment/{id}': 'getInboundShipment',
  'POST /v1/inbound-shipment/{id}/ship': 'shipInboundShipment',
  'POST /v1/inbound-shipment/{id}/receive': 'receiveInboundShipment',
  'POST /v1/inbound-shipment/{id}/cancel': 'cancelInboundShipment',
  'GET /v1/vendor': 'listVendors',
  'GET /v1/vendor/{id}': 'getVendor',
  // v2 storefront: ListingService, TaxonomyService, OrdersService.
  'GET /v2/storefront/listing/{listingId}': 'Get',
  'GET /v2/storefront/listing/sku/{sku}': 'GetBySKU',
  'GET /v2/storefront/listing/sku/{sku}/category': 'CategoryForSKU',
  'GET /v2/storefront/listing/variant/{sku}': 'GetVariant',
  'GET /v2/storefront/listing/new': 'ListNewListings',
  'GET /v2/storefront/listing/product_data/updated': 'ListUpdatedListings',
  'GET /v2/storefront/listing/variant/inventory/updated': 'ListVariantsWithUpdatedInventory',
  'GET /v2/storefront/listing/variant/pricing/updated': 'ListVariantsWithUpdatedPricing',
  'POST /v2/storefront/listing/variant/{sku}/status': 'UpdateStatus',
  'POST /v2/storefront/listing/variant/{sku}/channel_id': 'UpdateChannelListingID',
  'POST /v2/storefront/listing/variant/{sku}/errors': 'ReplaceErrors',
  'POST /v2/storefront/listing/submission': 'CreateSubmissions',
  'PUT /v2/storefront/listing/submission/{type}/{sku}': 'UpdateSubmission',
  'POST /v2/storefront/listing/submission/{submissionId}/inventory': 'SetInventorySubmissionDetails',
  'POST /v2/storefront/listing/ingestion/begin': 'BeginIngestion',
  'POST /v2/storefront/listing/ingestion/request': 'RequestIngestion',
  'POST /v2/storefront/listing/ingestion/end': 'EndIngestion',
  'POST /v2/storefront/listing/valid_values': 'SetStorefrontValidValues',
  'GET /v2/storefront/listing/valid_values': 'GetStorefrontValidValues',
  'GET /v2/storefront/listing/variant/inventory/updated/skus': 'ListSkusWithUpdatedInventory',
  'GET /v2/storefront/listing/variant/inventory/drift/skus': 'ListSkusWithInventoryDrift',
  'GET /v2/storefront/taxonomy/product_type': 'ListProductTypes',
  'POST /v2/storefront/taxonomy/product_type': 'CreateProductType',
  'DELETE /v2/storefront/taxonomy/product_type/{productTypeId}': 'DeleteProductType',
  'GET /v2/storefront/taxonomy/attribute_spec/{productTypeId}/{attributeSpecId}': 'AttributeSpec',
  'GET /v2/storefront/taxonomy/attribute_spec/{productTypeId}': 'ListAttributeSpecs',
  'POST /v2/storefront/taxonomy/attribute_spec/{productTypeId}': 'CreateAttributeSpec',
  'PUT /v2/storefront/taxonomy/attribute_spec/{productTypeId}': 'UpdateAttributeSpec',
  // The same update with the spec id in the path as well (resolutions §7 serves both).
  'PUT /v2/storefront/taxonomy/attribute_spec/{productTypeId}/{attributeSpecId}': 'UpdateAttributeSpecAtPath',
  'DELETE /v2/storefront/taxonomy/attribute_spec/{productTypeId}/{attributeSpecId}': 'DeleteAttributeSpec',
  'POST /v2/storefront/orders/cancel': 'CancelItems',
  'GET /v2/storefront/orders/shipped': 'ListShippedOrders',
  'GET /v2/storefront/order': 'GetOrder',
  // v2 shipping: FulfillmentIntegrationService.
  'GET /v2/shipping/need_to_ship': 'ListNeedToShip',
  'GET /v2/shipping/need_to_cancel': 'ListNeedToCancel',
  'GET /v2/shipping/fulfillment_order': 'GetFulfillmentOrder',
  'POST /v2/shipping/fulfillment_orders/acknowledge': 'AcknowledgeFulfillmentOrders',
  'POST /v2/shipping/shipments': 'ConfirmShipments',
  'POST /v2/shipping/fulfillment_orders/confirm_cancellations': 'ConfirmCancellations',
  'POST /v2/shipping/fulfillment_orders/reject': 'RejectFulfillmentOrders',
  'POST /v2/shipping/fulfillment_orders/alerts': 'RaiseAlerts',
  'POST /v2/shipping/fulfillment_orders/alerts/resolve': 'ResolveAlerts',
  'GET /v2/shipping/status': 'IntegrationStatus',
  // v2 inventory (its definitions are not published with the others; named in the same style, the status
  // check apart from the shipping service's IntegrationStatus).
  'GET /v2/inventory': 'ListInventory',
  'POST /v2/inventory': 'UpdateInventory',
  'GET /v2/inventory/warehouses': 'ListWarehouses',
  'GET /v2/inventory/status': 'InventoryIntegrationStatus',
};

/**
 * Last path words of a POST that name an action rather than a thing: the operation's verb, and the words that
 * follow the noun (rotate-secrets on an app → rotateAppSecrets).
 */
const ACTIONS: Record<string, { verb: string; after?: string }> = {
  revoke: { verb: 'revoke' },
  retry: { verb: 'retry' },
  apply: { verb: 'apply' },
  discard: { verb: 'discard' },
  cancel: { verb: 'cancel' },
  reroute: { verb: 'reroute' },
  receive: { verb: 'receive' },
  close: { verb: 'close' },
  resolve: { verb: 'resolve' },
  replay: { verb: 'replay' },
  disconnect: { verb: 'disconnect' },
  'rotate-secrets': { verb: 'rotate', after: 'secrets' },
  'status-check': { verb: 'check', after: 'status' },
  'ingestion-request': { verb: 'request', after: 'ingestion' },
};
const VERB_BY_METHOD: Record<string, string> = { POST: 'create', PUT: 'set', PATCH: 'update', DELETE: 'delete' };
/** Path words that end in "s" but name one thing. */
const NOT_PLURAL = new Set(['settings', 'status']);

const capital = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
const wordsOf = (segment: string): string[] => segment.split(/[-_]/).filter(Boolean);
const isPlural = (word: string): boolean => word.endsWith('s') && !NOT_PLURAL.has(word);
const singular = (word: string): string => (!isPlural(word) ? word : word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.slice(0, -1));

/**
 * verb + noun from an operator route's path: `GET /admin/accounts/{accountId}/users` → listAccountUsers,
 * `GET …/users/{id}` → getAccountUser, `POST …/jobs/{jobId}/retry` → retryJob.
 */
export function operationIdFromPath(method: string, url: string): string {
  const segments = url.split('/').filter((s) => s !== '' && s !== 'admin');
  const last = segments.at(-1) ?? '';
  const action = method === 'POST' ? ACTIONS[last] : undefined;
  const path = action ? segments.slice(0, -1) : segments;
  const things = path.filter((s) => !s.startsWith('{'));
  const endsOnItem = path.at(-1)?.startsWith('{') ?? false;
  const lastWord = wordsOf(things.at(-1) ?? '').at(-1) ?? '';
  const verb = action?.verb ?? (method === 'GET' ? (endsOnItem || !isPlural(lastWord) ? 'get' : 'list') : (VERB_BY_METHOD[method] ?? method.toLowerCase()));
  // Every word singular but a listed collection's last (listAccountUsers, getAccountUser).
  const nouns = things.flatMap((segment, i) => {
    const words = wordsOf(segment);
    return i === things.length - 1 && verb === 'list' ? words : [...words.slice(0, -1), singular(words.at(-1) ?? '')];
  });
  return [verb, ...nouns, ...(action?.after ? [action.after] : [])].map((w, i) => (i === 0 ? w : capital(w))).join('');
}

/** The operationId of a route, in the document's path form (`{param}`), or null when it has none to give. */
export function operationIdOf(method: string, openApiPath: string): string | null {
  return NAMED[`${method} ${openApiPath}`] ?? (openApiPath.startsWith('/admin/') ? operationIdFromPath(method, openApiPath) : null);
}

/** Fastify's `:param` path as the document writes it (`{param}`). */
export function openApiPathOf(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The operator API's areas, named by the first word of the path after the account (or after /admin). */
const ADMIN_AREAS: Record<string, string> = {
  accounts: 'accounts',
  users: 'users',
  operators: 'users',
  warehouses: 'warehouses',
  'custom-stores': 'custom stores',
  apps: 'apps',
  installations: 'installations',
  tokens: 'tokens',
  jobs: 'jobs',
  deliveries: 'callback deliveries',
  storefronts: 'storefronts',
  listings: 'listings',
  ingestions: 'listings',
  orders: 'sales orders',
  alerts: 'sales orders',
  products: 'catalog and stock',
  inventory: 'catalog and stock',
  'import-templates': 'import templates',
  vendors: 'vendors',
  'inbound-shipments': 'inbound shipments',
};

/** The tag of an operator route: `admin: <area>`, so the reference groups the operator API by area. */
export function adminTagOf(openApiPath: string): string {
  const segments = openApiPath.split('/').filter(Boolean).slice(1);
  const inAccount = segments[0] === 'accounts' && segments.length > 2 ? segments[2]! : segments[0]!;
  return `admin: ${ADMIN_AREAS[inAccount] ?? inAccount.replace(/-/g, ' ')}`;
}
