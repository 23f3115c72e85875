import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.js';
import { multipartBody } from './reports.js';

/**
 * A browser for console tests over app.inject: keeps cookies like a browser would (per name, cleared by
 * Max-Age=0 or a past Expires), remembers the CSRF token of the last page with a form, and sends form posts.
 */
export interface ConsoleBrowser {
  cookies: Map<string, string>;
  csrf: string;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Posts a form with the remembered CSRF token (unless `_csrf` is given, or `csrf: false`). */
  post(url: string, form: Record<string, string>, options?: { csrf?: boolean; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  /** Posts a form whose fields may repeat (rows of one name), with the remembered CSRF token. */
  postEntries(url: string, entries: [string, string][]): Promise<LightMyRequestResponse>;
  /** Posts a multipart/form-data upload; the CSRF token goes in the URL (`?_csrf=`) as the console's upload forms do. */
  upload(url: string, fields: Record<string, string>, file: { name: string; content: string | Buffer; field?: string }, options?: { csrf?: boolean }): Promise<LightMyRequestResponse>;
  /** GET /console/login, then signs in; returns the sign-in response. */
  signIn(email: string, password: string): Promise<LightMyRequestResponse>;
  /** Posts a form that redirects (303, asserted) and answers the page it lands on, with its flash. */
  submit(url: string, form: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Posts a form that redirects (303, asserted) and answers the flash message its redirect sets. */
  flashOf(url: string, form: Record<string, string>): Promise<{ kind: string; text: string }>;
}

const CSRF_INPUT = /name="_csrf" value="([^"]+)"/;

export function consoleBrowser(t: TestApp): ConsoleBrowser {
  const cookies = new Map<string, string>();
  // res.cookies holds decoded values; a browser sends back the encoded ones (a flash's JSON may hold "; ").
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
  const remember = (res: LightMyRequestResponse) => {
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const gone = c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() <= Date.now() && c.value === '');
      if (gone) cookies.delete(c.name);
      else cookies.set(c.name, c.value);
    }
    const match = CSRF_INPUT.exec(res.body);
    if (match) browser.csrf = match[1]!;
    return res;
  };
  const browser: ConsoleBrowser = {
    cookies,
    csrf: '',
    async get(url, headers = {}) {
      return remember(await t.app.inject({ method: 'GET', url, headers: { cookie: cookieHeader(), ...headers } }));
    },
    async post(url, form, options = {}) {
      const fields = { ...(options.csrf === false ? {} : { _csrf: browser.csrf }), ...form };
      return remember(
        await t.app.inject({
          method: 'POST',
          url,
          headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
          payload: new URLSearchParams(fields).toString(),
        }),
      );
    },
    async postEntries(url, entries) {
      return remember(
        await t.app.inject({
          method: 'POST',
          url,
          headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams([['_csrf', browser.csrf], ...entries]).toString(),
        }),
      );
    },
    async upload(url, fields, file, options = {}) {
      const { payload, headers } = multipartBody(fields, file);
      const target = options.csrf === false ? url : `${url}${url.includes('?') ? '&' : '?'}_csrf=${encodeURIComponent(browser.csrf)}`;
      return remember(await t.app.inject({ method: 'POST', url: target, headers: { cookie: cookieHeader(), ...headers }, payload }));
    },
    async signIn(email, password) {
      await browser.get('/console/login');
      return browser.post('/console/login', { email, password });
    },
    async submit(url, form) {
      const res = await browser.post(url, form);
      assert.equal(res.statusCode, 303, res.body);
      return browser.get(res.headers.location as string);
    },
    async flashOf(url, form) {
      const res = await browser.post(url, form);
      assert.equal(res.statusCode, 303, res.body);
      const raw = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('mcs_flash='));
      assert.ok(raw, 'a flash cookie');
      return JSON.parse(decodeURIComponent(raw.slice('mcs_flash='.length).split(';')[0]!)) as { kind: string; text: string };
    },
  };
  return browser;
}
