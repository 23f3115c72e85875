import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** Issue 24 item 7: the console has a tab icon, served by the service itself and cached by its hashed URL. */
describe('console: favicon', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('links every page to an SVG icon the service serves', async () => {
    const login = await t.app.inject({ url: '/console/login' });
    assert.equal(login.statusCode, 200);
    const href = /<link rel="icon" type="image\/svg\+xml" href="(\/console\/assets\/icon-[0-9a-f]{12}\.svg)"\/>/.exec(login.body)?.[1];
    assert.ok(href, 'the page links its icon');
    const icon = await t.app.inject({ url: href });
    assert.equal(icon.statusCode, 200);
    assert.match(icon.headers['content-type'] as string, /^image\/svg\+xml/);
    assert.match(icon.headers['cache-control'] as string, /immutable/);
    assert.match(icon.body, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });
});
