// The partner client's README examples: every TypeScript block of packages/client/README.md is a marked region
// of a file under packages/client/examples (which `npm run typecheck` compiles), and those files run here
// against the service listening on a loopback port, as a partner's code would call it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createClient } from '@mcs/partner-client';
import { callbackServer } from '../../packages/client/examples/callback-server.js';
import { ordersSince, owedFulfillmentOrders } from '../../packages/client/examples/paging.js';
import { missingOrderReference, placeOrder } from '../../packages/client/examples/requests.js';
import { syncOnce } from '../../packages/client/examples/shipping-loop.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { REDIRECT_URI, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { REPO_ROOT } from '../helpers/repo-root.js';
import { stock } from '../http/v1-sales-orders-helpers.js';

const CLIENT_DIR = path.join(REPO_ROOT, 'packages', 'client');

/** The ```ts blocks of a Markdown text, as written. */
function typescriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!.replace(/\n$/, ''));
}

/** `// #region readme:<name>` … `// #endregion` in a source file, each without its common indentation. */
function readmeRegions(source: string): Map<string, string> {
  const regions = new Map<string, string>();
  for (const m of source.matchAll(/^[ \t]*\/\/ #region readme:(\S+)\n([\s\S]*?)^[ \t]*\/\/ #endregion$/gm)) {
    const lines = m[2]!.replace(/\n$/, '').split('\n');
    const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
    regions.set(m[1]!, lines.map((l) => l.slice(indent)).join('\n'));
  }
  return regions;
}

describe('partner client README', () => {
  it('shows exactly the marked regions of packages/client/examples, each once', () => {
    const blocks = typescriptBlocks(readFileSync(path.join(CLIENT_DIR, 'README.md'), 'utf8'));
    const regions = new Map<string, string>();
    for (const file of readdirSync(path.join(CLIENT_DIR, 'examples')).filter((f) => f.endsWith('.ts'))) {
      for (const [name, text] of readmeRegions(readFileSync(path.join(CLIENT_DIR, 'examples', file), 'utf8'))) {
        assert.ok(!regions.has(name), `region readme:${name} is marked twice`);
        regions.set(name, text);
      }
    }
    assert.ok(regions.size >= 6, `expected the README's regions, found ${[...regions.keys()].join(', ')}`);
    const unmatched = blocks.filter((block) => ![...regions.values()].includes(block));
    assert.deepEqual(unmatched, [], 'a ```ts block of the README is not a region of packages/client/examples (copy it from there)');
    const missing = [...regions].filter(([, text]) => !blocks.includes(text)).map(([name]) => name);
    assert.deepEqual(missing, [], 'a readme: region of packages/client/examples is not in the README');
    assert.equal(blocks.length, regions.size, 'each region is shown once');
  });
});

describe('partner client README examples against the service', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let baseUrl: string;
  const since = new Date(Date.now() - 60_000).toISOString();
  const placed: string[] = [];

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    // Stock in the shipping integration's warehouse, so the orders are routed where it ships from.
    await stock(t, seed.sellerToken, 'SKU-1', seed.warehouses.main, 100);
  });
  after(async () => t.close());

  it('requests: a storefront places an order, reads it back and finds it among the pending ones', async () => {
    for (const channelOrderId of ['EX-1', 'EX-2', 'EX-3']) {
      const { warehouses, order, same, pending } = await placeOrder(baseUrl, seed.channel.token, channelOrderId);
      assert.equal(warehouses.length, 3);
      assert.equal(order.channelOrderId, channelOrderId);
      assert.equal(same.orderNumber, order.orderNumber);
      assert.ok(pending.results.some((o) => o.orderNumber === order.orderNumber && o.status === 'PENDING'));
      placed.push(order.orderNumber);
    }
    // The same channelOrderId again is the same order (idempotent), not a fourth one.
    assert.equal((await placeOrder(baseUrl, seed.channel.token, 'EX-1')).order.orderNumber, placed[0]);
  });

  it('errors: a missing order is an ApiError 404 with the v1 body; an existing one is no error', async () => {
    const seller = createClient({ baseUrl, accessToken: seed.sellerToken });
    assert.match((await missingOrderReference(seller, '999999999')) ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(await missingOrderReference(seller, placed[0]!), undefined);
  });

  it('paging: the v1 pager and the v2 pager see every order placed', async () => {
    const v1 = await ordersSince(createClient({ baseUrl, accessToken: seed.sellerToken }), since);
    assert.deepEqual([...v1.orderNumbers].sort(), [...placed].sort());
    assert.deepEqual(v1.pageSizes, [3]);
    const v2 = await owedFulfillmentOrders(createClient({ baseUrl, accessToken: seed.shipping.token }));
    assert.equal(v2.owed.length, 3);
    assert.deepEqual(v2.pageSizes, [3]);
  });

  it('the shipping loop acknowledges and ships everything owed: the queue empties and the orders are shipped', async () => {
    await syncOnce(baseUrl, seed.shipping.token);
    assert.deepEqual((await owedFulfillmentOrders(createClient({ baseUrl, accessToken: seed.shipping.token }))).owed, []);
    const seller = createClient({ baseUrl, accessToken: seed.sellerToken });
    for (const orderNumber of placed) {
      assert.equal((await seller.get('/v1/salesOrder/{orderNumber}', { path: { orderNumber } })).status, 'SHIPPED');
    }
    // A second pass finds nothing to do.
    await syncOnce(baseUrl, seed.shipping.token);
  });

  it('the callback server accepts what the service signs and refuses another secret', async () => {
    const start = async (server: Server) => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      // With a path prefix, which the signed path includes.
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/partner`;
    };
    const register = async (callbackBaseUrl: string) => {
      const reg = await admin(t, 'POST', '/admin/apps', {
        name: `Example channel ${callbackBaseUrl}`,
        contactEmail: 'dev@partner.example',
        redirectUri: REDIRECT_URI,
        kind: 'SALES_CHANNEL',
        scopes: ['listing:self'],
        callbackBaseUrl,
      });
      assert.equal(reg.statusCode, 201, reg.body);
      const { appId, callbackSigningSecret } = reg.json() as { appId: number; callbackSigningSecret: string };
      const inst = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/installations`, { appId, storefrontName: 'Example shop' });
      assert.equal(inst.statusCode, 201, inst.body);
      return { secret: callbackSigningSecret, storefrontId: (inst.json() as { storefrontId: number }).storefrontId };
    };

    const secrets: string[] = [];
    const good = callbackServer(secrets);
    const wrong = callbackServer(['not-the-signing-secret']);
    try {
      const app = await register(await start(good));
      secrets.push(app.secret);
      // A GET (no body): the synchronous storefront status check answers what the example returned.
      const checked = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/storefronts/${app.storefrontId}/status-check`);
      assert.equal(checked.statusCode, 200, checked.body);
      assert.deepEqual((checked.json() as { checks: unknown[] }).checks, []);
      // A POST with a JSON body, delivered by the job worker.
      const requested = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/storefronts/${app.storefrontId}/ingestion-request`, { skus: ['SKU-1'] });
      assert.equal(requested.statusCode, 202, requested.body);
      const { deliveryId } = requested.json() as { deliveryId: string };
      await new JobWorker(t.deps, { id: 'examples-test', schedules: [] }).runUntilIdle();
      const delivery = (await admin(t, 'GET', `/admin/deliveries/${deliveryId}`)).json() as { state: string; lastStatus: number | null };
      assert.deepEqual([delivery.state, delivery.lastStatus], ['SUCCEEDED', 200]);

      // Signed with a secret the server does not hold: 401, which the service reports as a failed check.
      const other = await register(await start(wrong));
      const refused = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/storefronts/${other.storefrontId}/status-check`);
      assert.equal(refused.statusCode, 502, refused.body);
      assert.match(refused.body, /401/);
    } finally {
      for (const server of [good, wrong]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });
});
