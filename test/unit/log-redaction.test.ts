import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REDACTED, redactUrl, redactUrlsInText } from '../../src/lib/log-redaction.js';

const R = REDACTED;

/** [what it is, the URL, what the log gets]. Every credential value is spelled SECRET so leaks are easy to find. */
const URLS: [string, string, string][] = [
  ['plain', '/v1/x?access_token=SECRET&pageLength=2', `/v1/x?access_token=${R}&pageLength=2`],
  ['percent-encoded `=` ending the name', '/v1/x?access_token%3D=SECRET', `/v1/x?access_token%3D=${R}`],
  ['percent-encoded `=` instead of `=`', '/v1/x?access_token%3DSECRET&b=1', `/v1/x?access_token%3D${R}&b=1`],
  ['`=` encoded twice', '/v1/x?access_token%253D=SECRET', `/v1/x?access_token%253D=${R}`],
  ['`;` separator (a `;` does not end a value: the rest of it is redacted too)', '/v1/x?a=1;access_token=SECRET;b=2', `/v1/x?a=1;access_token=${R}`],
  ['`;` first', '/v1/x?;access_token=SECRET', `/v1/x?;access_token=${R}`],
  ['repeated keys', '/v1/x?access_token=SECRET&b=1&access_token=SECRET', `/v1/x?access_token=${R}&b=1&access_token=${R}`],
  ['mixed case', '/v1/x?a=1&Access_Token=SECRET&Client_Secret=SECRET', `/v1/x?a=1&Access_Token=${R}&Client_Secret=${R}`],
  ['fragment', '/cb#access_token=SECRET&state=xyz', `/cb#access_token=${R}&state=xyz`],
  ['query and fragment', '/cb?a=1&CoDe=SECRET#f', `/cb?a=1&CoDe=${R}#f`],
  ['percent-encoded letter', '/v1/x?%61ccess_token=SECRET', `/v1/x?%61ccess_token=${R}`],
  ['percent-encoded underscore', '/v1/x?access%5Ftoken=SECRET', `/v1/x?access%5Ftoken=${R}`],
  ['underscore encoded twice', '/v1/x?access%255Ftoken=SECRET', `/v1/x?access%255Ftoken=${R}`],
  ['percent-encoded `&` inside another value', '/v1/x?a=1%26access_token%3DSECRET&b=2', `/v1/x?a=1%26access_token%3D${R}&b=2`],
  ['percent-encoded `;` inside another value', '/v1/x?a=1%3Bcode%3DSECRET', `/v1/x?a=1%3Bcode%3D${R}`],
  ['`+` and spaces around the name', '/v1/x?+access_token+=+SECRET', `/v1/x?+access_token+=${R}`],
  ['encoded space inside the value', '/v1/x?access_token=abc%20SECRET&b=1', `/v1/x?access_token=${R}&b=1`],
  ['`+` inside the value', '/v1/x?access_token=abc+SECRET&b=1', `/v1/x?access_token=${R}&b=1`],
  ['name without `=`, value in the next segment', '/v1/x?access_token&SECRET&b=2', `/v1/x?access_token&${R}&b=2`],
  ['name without `=` after `;`', '/v1/x?a=1;token;SECRET', `/v1/x?a=1;token;${R}`],
  ['empty value, value in the next segment', '/v1/x?access_token=&SECRET', `/v1/x?access_token=&${R}`],
  ['a token holding a raw `&`', '/v1/x?token=abc&SECRET', `/v1/x?token=${R}&${R}`],
  ['array syntax', '/v1/x?access_token[]=SECRET&client_secret[0]=SECRET', `/v1/x?access_token[]=${R}&client_secret[0]=${R}`],
  ['a second `?`', '/v1/x?a=1?access_token=SECRET', `/v1/x?a=1?access_token=${R}`],
  ['a URL inside a value', '/v1/x?next=%2Fcb%3Fcode%3DSECRET', `/v1/x?next=%2Fcb%3Fcode%3D${R}`],
  ['code', '/install?state=s&code=SECRET', `/install?state=s&code=${R}`],
  ['authorization_code', '/v1/token?authorization_code=SECRET', `/v1/token?authorization_code=${R}`],
  ['token', '/v1/x?token=SECRET', `/v1/x?token=${R}`],
  ['refresh_token', '/v1/x?refresh_token=SECRET', `/v1/x?refresh_token=${R}`],
  ['_csrf', '/console/reports/import?_csrf=SECRET', `/console/reports/import?_csrf=${R}`],
  ['password (a login form sent by GET)', '/console/login?email=a%40b.example&password=SECRET', `/console/login?email=a%40b.example&password=${R}`],
  ['invitation link', '/console/invite/SECRET?x=1', `/console/invite/${R}?x=1`],
  ['invitation link, encoded path', '/console/%69nvite/SECRET', `/console/%69nvite/${R}`],
  ['invitation link, encoded slash in the token', '/console/invite/SECRET%2Fmore#x', `/console/invite/${R}#x`],
  ['user and password', 'https://user:SECRET@partner.example/cb', `https://${R}@partner.example/cb`],
  ['token as user', 'https://SECRET@git.example/x?a=1', `https://${R}@git.example/x?a=1`],
  // Left alone: names that only contain a credential name, and URLs without any.
  ['other parameters', '/v1/inventory?nextToken=abc&pageLength=1', '/v1/inventory?nextToken=abc&pageLength=1'],
  ['names that only start or end like one', '/x?code_challenge=a&token_type=bearer&zipcode=2&mytoken=3&codes=4', '/x?code_challenge=a&token_type=bearer&zipcode=2&mytoken=3&codes=4'],
  ['a bare credential name next to one', '/x?CODE=SECRET&code&zipcode=2#f', `/x?CODE=${R}&code&zipcode=2#f`],
  ['no query', '/x', '/x'],
  ['a harmless fragment', '/x?a=1#f', '/x?a=1#f'],
  ['malformed percent-encoding', '/x?a=%zz&b=%4', '/x?a=%zz&b=%4'],
];

/** [what it is, a request URL, what the log gets]: a request target is no JSON, and only `&` or `#` ends a value there. */
const REQUEST_TARGETS: [string, string, string][] = [
  ['a quote inside the value', '/v1/x?access_token=abc"SECRET&b=1', `/v1/x?access_token=${R}&b=1`],
  ['a backslash and a JSON escape inside the value', '/v1/x?access_token=abc\\u0026x=SECRET\\"SECRET&b=1', `/v1/x?access_token=${R}&b=1`],
  ['brackets inside the value', '/v1/x?token=<SECRET>&b=1', `/v1/x?token=${R}&b=1`],
];

/** [what it is, a serialized log line, what is written]. */
const LINES: [string, string, string][] = [
  [
    'a URL in a message',
    '{"msg":"GET https://p.example/cb?client_id=a&code=SECRET failed"}',
    `{"msg":"GET https://p.example/cb?client_id=a&code=${R} failed"}`,
  ],
  ['JSON-escaped `&`', '{"msg":"https://p.example/cb?a=1\\u0026code=SECRET"}', `{"msg":"https://p.example/cb?a=1\\u0026code=${R}"}`],
  ['JSON-escaped `=`', '{"msg":"https://p.example/cb?a=1&code\\u003dSECRET"}', `{"msg":"https://p.example/cb?a=1&code\\u003d${R}"}`],
  ['quoted with `\\"`', '{"msg":"url \\"https://p.example/cb?code=SECRET\\" refused"}', `{"msg":"url \\"https://p.example/cb?code=${R}\\" refused"}`],
  ['HTML-escaped `&`', '{"body":"<a href=\\"/x?a=1&amp;access_token=SECRET\\">"}', `{"body":"<a href=\\"/x?a=1&amp;access_token=${R}\\">"}`],
  ['an invitation link', '{"link":"https://shop.example/console/invite/SECRET"}', `{"link":"https://shop.example/console/invite/${R}"}`],
  ['a database URL', '{"msg":"connect ECONNREFUSED postgres://app:SECRET@db:5432/x"}', `{"msg":"connect ECONNREFUSED postgres://${R}@db:5432/x"}`],
  ['a form body', '{"msg":"body grant_type=authorization_code&code=SECRET"}', `{"msg":"body grant_type=authorization_code&code=${R}"}`],
  ['nothing to redact', '{"level":30,"res":{"statusCode":200},"msg":"request completed"}', '{"level":30,"res":{"statusCode":200},"msg":"request completed"}'],
  ['an escape that is no URL', '{"msg":"line\\nnext \\"quoted\\" 100%"}', '{"msg":"line\\nnext \\"quoted\\" 100%"}'],
];

describe('log redaction', () => {
  for (const [what, url, expected] of URLS) {
    it(`redactUrl: ${what}`, () => {
      assert.equal(redactUrl(url), expected);
      // The line-level pass keeps what the URL pass wrote, and finds the same credentials on its own.
      assert.equal(redactUrlsInText(JSON.stringify({ url: redactUrl(url) })), JSON.stringify({ url: expected }));
      assert.equal(redactUrlsInText(JSON.stringify({ url })), JSON.stringify({ url: expected }));
    });
  }

  for (const [what, url, expected] of REQUEST_TARGETS) {
    it(`redactUrl: ${what}`, () => assert.equal(redactUrl(url), expected));
  }

  for (const [what, line, expected] of LINES) {
    it(`redactUrlsInText: ${what}`, () => assert.equal(redactUrlsInText(line), expected));
  }

  it('finds a credential in a JSON body quoted inside a JSON log line', () => {
    const body = JSON.stringify({ url: 'https://p.example/cb?a=1&access_token=SECRET' }).replace(/&/g, '\\u0026');
    const line = JSON.stringify({ msg: 'partner answered', body });
    const out = redactUrlsInText(line);
    assert.ok(!out.includes('SECRET'), out);
    assert.deepEqual(JSON.parse(out), { msg: 'partner answered', body: body.replace('SECRET', R) });
  });

  it('handles 100 KB inputs in linear time and still redacts', () => {
    // Compared with assert.ok: a failing deepEqual would print 100 KB.
    const big = `/v1/x?${'a=1&'.repeat(25_000)}access_token%3D=SECRET&b=${'b'.repeat(1000)}`;
    assert.ok(redactUrl(big) === `/v1/x?${'a=1&'.repeat(25_000)}access_token%3D=${R}&b=${'b'.repeat(1000)}`);
    assert.ok(redactUrlsInText(JSON.stringify({ url: big })) === JSON.stringify({ url: redactUrl(big) }));
    const hostile = [
      `/x?${'code='.repeat(20_000)}`,
      `/x?${'token&'.repeat(17_000)}`,
      `/x?access_token=${'%25'.repeat(33_000)}`,
      `/x?${'%2525253D'.repeat(11_000)}`,
      '\\\\u0026access_token='.repeat(5_000),
      ':%2F%2F'.repeat(14_000),
      '@' + '://b'.repeat(25_000),
      '%2Finvite%2F'.repeat(8_000),
      'token['.repeat(17_000),
      '?access_token%3D=x;code&'.repeat(4_000),
      'a'.repeat(100_000),
    ];
    for (const [i, text] of hostile.entries()) {
      assert.ok(text.length >= 90_000, `input ${i} is ${text.length} long`);
      const url = redactUrl(text);
      assert.ok(redactUrl(url) === url, `redacting input ${i} twice changes nothing`);
      assert.equal(typeof redactUrlsInText(text), 'string');
    }
    assert.ok(redactUrl(hostile[0]!) === `/x?code=${R}`);
    assert.ok(redactUrl(hostile[2]!) === `/x?access_token=${R}`);
    assert.ok(!redactUrl(hostile[9]!).includes('=x'));
  });

  it('never leaks any of the known-bad forms, alone or combined', () => {
    const forms = URLS.filter(([, url]) => url.includes('SECRET')).map(([, url]) => url);
    for (const url of forms) assert.ok(!redactUrl(url).includes('SECRET'), url);
    const all = forms.join(' ');
    assert.ok(!redactUrlsInText(all).includes('SECRET'));
    assert.ok(!redactUrlsInText(JSON.stringify({ msg: all })).includes('SECRET'));
    assert.ok(!redactUrlsInText(JSON.stringify({ msg: JSON.stringify({ msg: all }) })).includes('SECRET'));
  });
});
