import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, buildUrl, createClient, pagesV2, parseRetryAfter, type Client } from '../../packages/client/src/index.js';

interface Seen {
  url: string;
  init: RequestInit | undefined;
}

/** A fetch that answers from a list and records what it was asked. */
function fakeFetch(answers: Response[]): { fetch: typeof fetch; seen: Seen[] } {
  const seen: Seen[] = [];
  const fn = async (input: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(input), init });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next;
  };
  return { fetch: fn as typeof fetch, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('partner client (no service)', () => {
  it('builds URLs: prefix kept, path parameters encoded, arrays as repeated keys, undefined left out', () => {
    assert.equal(
      buildUrl('https://api.example/prefix', '/v1/salesOrder/{orderNumber}', { path: { orderNumber: 'A/1' }, query: { skus: ['a', 'b'], x: undefined, n: 2 } }),
      'https://api.example/prefix/v1/salesOrder/A%2F1?skus=a&skus=b&n=2',
    );
    assert.throws(() => buildUrl('https://x', '/v1/salesOrder/{orderNumber}'), /missing path parameter orderNumber/);
  });

  it('sends the Bearer token and a JSON body', async () => {
    const f = fakeFetch([json(200, { results: [] })]);
    const client = createClient({ baseUrl: 'https://api.example/', accessToken: 'tok', fetch: f.fetch });
    await client.post('/v2/shipping/fulfillment_orders/acknowledge', { body: { acknowledgements: [{ fulfillmentOrderId: '1' }] } });
    const headers = f.seen[0]!.init!.headers as Record<string, string>;
    assert.equal(f.seen[0]!.url, 'https://api.example/v2/shipping/fulfillment_orders/acknowledge');
    assert.equal(headers.authorization, 'Bearer tok');
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(f.seen[0]!.init!.body, '{"acknowledgements":[{"fulfillmentOrderId":"1"}]}');
  });

  it('retries a 429 after its Retry-After when asked to, then surfaces the last one', async () => {
    const waits: number[] = [];
    const body = { code: 8, message: 'rate limit exceeded', details: [] };
    const f = fakeFetch([json(429, body, { 'retry-after': '2' }), json(200, { orders: [], nextCursor: '' })]);
    const client = createClient({ baseUrl: 'https://x', accessToken: 't', fetch: f.fetch, retryOn429: 1, sleep: async (ms) => void waits.push(ms) });
    assert.deepEqual(await client.get('/v2/shipping/need_to_ship'), { orders: [], nextCursor: '' });
    assert.deepEqual(waits, [2000]);

    const g = fakeFetch([json(429, body, { 'retry-after': '1' }), json(429, body, { 'retry-after': '1' })]);
    const once = createClient({ baseUrl: 'https://x', accessToken: 't', fetch: g.fetch, retryOn429: 1, sleep: async () => {} });
    const error = await once.get('/v2/shipping/need_to_ship').catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterSeconds, 1);
    assert.deepEqual(error.v2, body);

    const h = fakeFetch([json(429, body, { 'retry-after': '3600' })]);
    const impatient = createClient({ baseUrl: 'https://x', accessToken: 't', fetch: h.fetch, retryOn429: 3, sleep: async () => assert.fail('no wait') });
    await assert.rejects(impatient.get('/v2/shipping/need_to_ship'), (e: unknown) => e instanceof ApiError && e.status === 429);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    assert.equal(parseRetryAfter('5'), 5);
    assert.equal(parseRetryAfter(new Date(10_000).toUTCString(), 0), 10);
    assert.equal(parseRetryAfter('soon'), null);
    assert.equal(parseRetryAfter(null), null);
  });

  it('classifies error bodies: v1, v2, anything else', () => {
    const v1 = new ApiError(404, 'GET', 'u', { errorCode: 404, errorMessages: ['not found'], referenceId: 'r' });
    assert.equal(v1.error.kind, 'v1');
    assert.equal(v1.v2, undefined);
    assert.match(v1.message, /GET u answered 404: not found \(referenceId r\)/);
    assert.equal(new ApiError(502, 'GET', 'u', '<html>').error.kind, 'other');
  });

  it('v2 pager repeats the filters and changes only cursor; stops on ""', async () => {
    const f = fakeFetch([
      json(200, { orders: [{ id: 1 }], nextCursor: 'c1' }),
      json(200, { orders: [{ id: 2 }], nextCursor: 'c2' }),
      json(200, { orders: [], nextCursor: '' }),
    ]);
    const client: Client = createClient({ baseUrl: 'https://x', accessToken: 't', fetch: f.fetch });
    let pages = 0;
    for await (const _ of pagesV2(client, '/v2/shipping/need_to_ship', { query: { pageSize: 1 } })) pages++;
    assert.equal(pages, 3);
    assert.deepEqual(
      f.seen.map((s) => s.url),
      ['https://x/v2/shipping/need_to_ship?pageSize=1', 'https://x/v2/shipping/need_to_ship?pageSize=1&cursor=c1', 'https://x/v2/shipping/need_to_ship?pageSize=1&cursor=c2'],
    );
  });
});

// Compile-time checks (npm run typecheck): the generated types reach every call. Never run.
export async function typeChecks(client: Client): Promise<void> {
  // @ts-expect-error not a path of the API
  await client.get('/v1/no-such-route');
  // @ts-expect-error POST /v1/salesOrder needs a body
  await client.post('/v1/salesOrder', {});
  // @ts-expect-error the order number is a path parameter
  await client.get('/v1/salesOrder/{orderNumber}');
  // @ts-expect-error pageLength is a number
  await client.get('/v1/salesOrder', { query: { pageLength: 'two' } });
  const warehouseId: number = (await client.get('/v1/warehouses')).results[0]!.warehouseId;
  // @ts-expect-error answers are typed, not any
  const wrong: string = (await client.get('/v1/warehouses')).results[0]!.warehouseId;
  void [warehouseId, wrong];
}
