import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.js';

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
  /** GET /console/login, then signs in; returns the sign-in response. */
  signIn(email: string, password: string): Promise<LightMyRequestResponse>;
}

const CSRF_INPUT = /name="_csrf" value="([^"]+)"/;

export function consoleBrowser(t: TestApp): ConsoleBrowser {
  const cookies = new Map<string, string>();
  // Values as the server set them (encoded): a flash message may hold a ';'.
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
    async signIn(email, password) {
      await browser.get('/console/login');
      return browser.post('/console/login', { email, password });
    },
  };
  return browser;
}
