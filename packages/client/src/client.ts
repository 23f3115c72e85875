// A small typed client over Node 20's global fetch: one method per HTTP verb, typed by path from the
// generated schema, JSON in and out, Bearer token, ApiError on anything but 200, optional 429 retries.
import { ApiError } from './errors.js';
import type { HttpMethod, Operation, OptionsArg, PathsWith, RequestOptions, ResponseOf } from './types.js';

export interface ClientOptions {
  /** Where the service answers, with any path prefix, e.g. https://api.example.com or http://127.0.0.1:8080. */
  baseUrl: string;
  /** The access token from POST /v1/token (sent as Authorization: Bearer <token>). */
  accessToken: string;
  /**
   * How many times to retry an answer 429 after waiting its Retry-After (default 0: the 429 is thrown).
   * A 429 means the request was not processed, so retrying a POST is safe.
   */
  retryOn429?: number;
  /** Longest Retry-After wait honoured, in seconds (default 60); a longer one throws the 429. */
  maxRetryAfterSeconds?: number;
  /** For tests and instrumentation; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** For tests; defaults to a timer. */
  sleep?: (ms: number) => Promise<void>;
}

type Call<M extends HttpMethod> = <P extends PathsWith<M>>(
  path: P,
  ...options: OptionsArg<Operation<P, M>>
) => Promise<ResponseOf<Operation<P, M>>>;

export interface Client {
  readonly baseUrl: string;
  get: Call<'get'>;
  post: Call<'post'>;
  put: Call<'put'>;
  patch: Call<'patch'>;
  delete: Call<'delete'>;
  /** GETs an absolute URL the service handed out (a v1 nextToken); refuses another origin than baseUrl's. */
  getUrl(url: string, signal?: AbortSignal): Promise<unknown>;
}

/** What the untyped core needs of any operation's options. */
interface AnyOptions {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export function createClient(options: ClientOptions): Client {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const origin = new URL(baseUrl).origin;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const retries = options.retryOn429 ?? 0;
  const maxWait = options.maxRetryAfterSeconds ?? 60;

  async function send(method: string, url: string, opts: AnyOptions): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${options.accessToken}`, ...opts.headers };
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    for (let attempt = 0; ; attempt++) {
      const res = await doFetch(url, { method, headers, body, signal: opts.signal });
      const text = await res.text();
      const parsed = parseBody(text, res.headers.get('content-type'));
      if (res.status === 200) return parsed;
      const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
      if (res.status === 429 && attempt < retries && retryAfter !== null && retryAfter <= maxWait) {
        await sleep(retryAfter * 1000);
        continue;
      }
      throw new ApiError(res.status, method, url, parsed, retryAfter);
    }
  }

  function call(method: HttpMethod) {
    return (path: string, opts: AnyOptions = {}) => send(method.toUpperCase(), buildUrl(baseUrl, path, opts), opts);
  }

  // The typed signatures are a view over the untyped core: the generated types describe what each path
  // takes and answers; at runtime every verb does the same thing.
  return {
    baseUrl,
    get: call('get') as Call<'get'>,
    post: call('post') as Call<'post'>,
    put: call('put') as Call<'put'>,
    patch: call('patch') as Call<'patch'>,
    delete: call('delete') as Call<'delete'>,
    async getUrl(url: string, signal?: AbortSignal) {
      // The token goes only where the client was pointed: a URL from an answer must not carry it elsewhere.
      if (new URL(url).origin !== origin) throw new Error(`refusing to send the access token to ${new URL(url).origin} (client origin ${origin})`);
      return send('GET', url, { signal });
    },
  };
}

/** baseUrl + path with {name} parameters filled in and the query appended (arrays as repeated keys). */
export function buildUrl(baseUrl: string, path: string, opts: Pick<AnyOptions, 'path' | 'query'> = {}): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = opts.path?.[name];
    if (value === undefined || value === null) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(opts.query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, String(v));
  }
  const qs = search.toString();
  return `${baseUrl}${filled}${qs ? `?${qs}` : ''}`;
}

function parseBody(text: string, contentType: string | null): unknown {
  if (text === '') return undefined;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export type { RequestOptions };
