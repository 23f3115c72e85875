import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Config } from '../../src/config.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { setStock } from './v1-inventory-helpers.js';

/**
 * X-Forwarded-Host/-Proto decide the host of absolute v1 nextToken URLs only when TRUST_PROXY trusts the
 * peer that sent them (resolutions §7 "Operation"); otherwise PUBLIC_BASE_URL, else the Host.
 */
describe('forwarded headers and TRUST_PROXY', () => {
  const apps: TestApp[] = [];
  after(async () => {
    for (const a of apps) await a.close();
  });

  async function start(config: Partial<Config>): Promise<{ t: TestApp; seed: SeededAccount }> {
    const t = await createTestApp({ config });
    apps.push(t);
    const seed = await seedAccount(t);
    await setStock(t, seed.sellerToken, [
      { SKU: 'FWD-A', warehouseId: seed.warehouses.main, quantity: 1 },
      { SKU: 'FWD-B', warehouseId: seed.warehouses.main, quantity: 2 },
    ]);
    return { t, seed };
  }

  async function nextUrl(t: TestApp, token: string, headers: Record<string, string>, remoteAddress?: string): Promise<string> {
    const res = await t.app.inject({
      url: '/v1/inventory?skus=FWD-A,FWD-B&pageLength=1',
      headers: { ...bearer(token), ...headers },
      ...(remoteAddress ? { remoteAddress } : {}),
    });
    assert.equal(res.statusCode, 200, res.body);
    const { pagination } = res.json() as { pagination: { hasNext: boolean; nextToken: string } };
    assert.equal(pagination.hasNext, true);
    return pagination.nextToken;
  }

  const spoof = { host: 'api.example.com', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

  describe('TRUST_PROXY unset (the default)', () => {
    let t: TestApp;
    let seed: SeededAccount;
    before(async () => ({ t, seed } = await start({})));

    it('uses the Host, not X-Forwarded-Host/-Proto', async () => {
      const url = await nextUrl(t, seed.sellerToken, spoof);
      assert.match(url, /^http:\/\/api\.example\.com\/v1\/inventory\?nextToken=/);
      assert.ok(!url.includes('evil'));
    });

    it('the Forwarded header does not count either', async () => {
      const url = await nextUrl(t, seed.sellerToken, { host: 'api.example.com', forwarded: 'host=evil.example;proto=https' });
      assert.match(url, /^http:\/\/api\.example\.com\//);
    });
  });

  describe('PUBLIC_BASE_URL set', () => {
    it('wins over the Host and forwarded headers, trusted or not', async () => {
      const { t, seed } = await start({ publicBaseUrl: 'https://commerce.example.org/base', trustProxy: true });
      const url = await nextUrl(t, seed.sellerToken, spoof);
      assert.match(url, /^https:\/\/commerce\.example\.org\/base\/v1\/inventory\?nextToken=/);
    });
  });

  describe('TRUST_PROXY=true', () => {
    it('follows X-Forwarded-Host/-Proto (the last entry, which the nearest proxy set)', async () => {
      const { t, seed } = await start({ trustProxy: true });
      assert.match(await nextUrl(t, seed.sellerToken, spoof), /^https:\/\/evil\.example\/v1\/inventory\?nextToken=/);
      const chained = await nextUrl(t, seed.sellerToken, { ...spoof, 'x-forwarded-host': 'client-said.example, shop.example.net' });
      assert.match(chained, /^https:\/\/shop\.example\.net\//);
    });
  });

  describe('TRUST_PROXY=<addresses>', () => {
    let t: TestApp;
    let seed: SeededAccount;
    before(async () => ({ t, seed } = await start({ trustProxy: ['10.0.0.0/8'] })));

    it('follows forwarded headers from a listed proxy only', async () => {
      assert.match(await nextUrl(t, seed.sellerToken, spoof, '10.1.2.3'), /^https:\/\/evil\.example\//);
      assert.match(await nextUrl(t, seed.sellerToken, spoof, '192.0.2.7'), /^http:\/\/api\.example\.com\//);
    });
  });

  describe('the tokenless operator API (development, no ADMIN_TOKEN)', () => {
    it('answers a direct loopback caller without TRUST_PROXY, even one claiming a loopback client', async () => {
      const dev = await createTestApp({ config: { adminToken: null } });
      apps.push(dev);
      assert.equal((await dev.app.inject({ url: '/admin/accounts' })).statusCode, 200);
      const relayed = await dev.app.inject({ url: '/admin/accounts', headers: { 'x-forwarded-proto': 'https' } });
      assert.equal(relayed.statusCode, 401, 'a relayed request is not local');
    });

    it('answers nobody when TRUST_PROXY is set: a loopback peer may be the proxy', async () => {
      for (const trustProxy of [true, ['loopback']] as const) {
        const dev = await createTestApp({ config: { adminToken: null, trustProxy: trustProxy === true ? true : [...trustProxy] } });
        apps.push(dev);
        for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }]) {
          const res = await dev.app.inject({ url: '/admin/accounts', headers });
          assert.equal(res.statusCode, 401, `${JSON.stringify(trustProxy)} ${JSON.stringify(headers)}: ${res.body}`);
          assert.match(res.json().errorMessages[0], /ADMIN_TOKEN/);
        }
      }
    });
  });
});
