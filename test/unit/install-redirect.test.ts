import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { installRedirectUrl } from '../../src/domain/accounts/installations.js';

/** Contract 5.2: the Install button sends the browser to GET <redirect_url>/?client_id=…&code=… */
describe('installRedirectUrl', () => {
  const at = (uri: string) => installRedirectUrl(uri, 'c1d2', 'Ab-_9');

  it('adds a / before the query unless the path ends with one', () => {
    assert.equal(at('https://partner.example/oauth/callback'), 'https://partner.example/oauth/callback/?client_id=c1d2&code=Ab-_9');
    assert.equal(at('https://partner.example/oauth/callback/'), 'https://partner.example/oauth/callback/?client_id=c1d2&code=Ab-_9');
    assert.equal(at('https://partner.example'), 'https://partner.example/?client_id=c1d2&code=Ab-_9');
    assert.equal(at('http://localhost:3000/cb'), 'http://localhost:3000/cb/?client_id=c1d2&code=Ab-_9');
  });

  it("keeps the redirect URI's own query verbatim, replaces a client_id or code in it, and drops a fragment", () => {
    assert.equal(at('https://p.example/cb?tenant=7&q=a%20b+c'), 'https://p.example/cb/?tenant=7&q=a%20b+c&client_id=c1d2&code=Ab-_9');
    assert.equal(at('https://p.example/cb?code=old&x=1&client_id=zz'), 'https://p.example/cb/?x=1&client_id=c1d2&code=Ab-_9');
    assert.equal(at('https://p.example/cb?#frag'), 'https://p.example/cb/?client_id=c1d2&code=Ab-_9');
  });
});
