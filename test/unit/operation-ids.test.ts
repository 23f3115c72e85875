import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operationIdFromPath } from '../../src/http/operation-ids.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('OpenAPI operationIds', () => {
  let t: TestApp;
  let operations: { method: string; path: string; operationId: string | undefined }[];
  before(async () => {
    t = await createTestApp();
    await t.app.ready();
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { operationId?: string }>> };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, operationId: op.operationId })));
  });
  after(async () => t.close());

  it('every operation of the document has one, and no two share it', () => {
    assert.ok(operations.length > 100, `only ${operations.length} operations`);
    assert.deepEqual(operations.filter((o) => !o.operationId).map((o) => `${o.method} ${o.path}`), []);
    const seen = new Map<string, string>();
    for (const o of operations) {
      const where = `${o.method} ${o.path}`;
      assert.ok(!seen.has(o.operationId!), `${o.operationId} names both ${seen.get(o.operationId!)} and ${where}`);
      seen.set(o.operationId!, where);
    }
  });

  it('v2 routes carry the production rpc names; v1 the operation in camelCase', () => {
    const idOf = (method: string, path: string) => operations.find((o) => o.method === method && o.path === path)?.operationId;
    assert.equal(idOf('GET', '/v2/shipping/need_to_ship'), 'ListNeedToShip');
    assert.equal(idOf('POST', '/v2/shipping/shipments'), 'ConfirmShipments');
    assert.equal(idOf('GET', '/v2/storefront/listing/sku/{sku}/category'), 'CategoryForSKU');
    assert.equal(idOf('POST', '/v2/storefront/orders/cancel'), 'CancelItems');
    assert.equal(idOf('DELETE', '/v2/storefront/taxonomy/attribute_spec/{productTypeId}/{attributeSpecId}'), 'DeleteAttributeSpec');
    assert.equal(idOf('GET', '/v1/salesOrder'), 'listSalesOrders');
    assert.equal(idOf('POST', '/v1/salesOrder/markPaid/{orderNumber}'), 'markSalesOrderPaid');
    for (const o of operations.filter((x) => x.path.startsWith('/v2/'))) assert.match(o.operationId!, /^[A-Z][A-Za-z]+$/, `${o.method} ${o.path}`);
    for (const o of operations.filter((x) => x.path.startsWith('/v1/') || x.path.startsWith('/admin/'))) assert.match(o.operationId!, /^[a-z][A-Za-z]+$/, `${o.method} ${o.path}`);
  });
});

describe('operationIdFromPath (operator routes: verb + noun)', () => {
  const cases: [string, string, string][] = [
    ['GET', '/admin/accounts', 'listAccounts'],
    ['GET', '/admin/accounts/{accountId}', 'getAccount'],
    ['GET', '/admin/accounts/{accountId}/users', 'listAccountUsers'],
    ['POST', '/admin/accounts/{accountId}/custom-stores', 'createAccountCustomStore'],
    ['PUT', '/admin/accounts/{accountId}/products/{sku}/low-stock-threshold', 'setAccountProductLowStockThreshold'],
    ['GET', '/admin/accounts/{accountId}/storefronts/{storefrontId}/settings', 'getAccountStorefrontSettings'],
    ['DELETE', '/admin/accounts/{accountId}/import-templates/{templateId}', 'deleteAccountImportTemplate'],
    ['POST', '/admin/jobs/{jobId}/retry', 'retryJob'],
    ['POST', '/admin/apps/{appId}/rotate-secrets', 'rotateAppSecrets'],
    ['POST', '/admin/accounts/{accountId}/storefronts/{storefrontId}/status-check', 'checkAccountStorefrontStatus'],
    ['GET', '/admin/accounts/{accountId}/storefronts/{storefrontId}/status-check', 'getAccountStorefrontStatusCheck'],
    ['PATCH', '/admin/accounts/{accountId}/vendors/{vendorId}', 'updateAccountVendor'],
    ['GET', '/admin/accounts/{accountId}/inventories', 'listAccountInventories'],
    ['GET', '/admin/accounts/{accountId}/categories/{id}', 'getAccountCategory'],
  ];
  for (const [method, path, expected] of cases) {
    it(`${method} ${path} → ${expected}`, () => assert.equal(operationIdFromPath(method, path), expected));
  }
});
