// Async iterators over the two paging styles. v1 (document 4.9): pagination.nextToken is the absolute URL of
// the next page, fetched as is ("" on the last page). v2: the same request again with only `cursor` set to
// the previous page's nextCursor / nextPageCursor, until it is "".
import type { Client } from './client.js';
import type { Operation, OptionsArg, PathsWith, QueryOf, RequestOptions, ResponseOf } from './types.js';

type GetPaths = PathsWith<'get'>;
type Page<P extends GetPaths> = ResponseOf<Operation<P, 'get'>>;

/** GET routes paged by a v1 nextToken. */
export type V1PagedPath = {
  [P in GetPaths]: Page<P> extends { pagination: { nextToken: string }; results: unknown[] } ? P : never;
}[GetPaths];

/** GET routes paged by a v2 cursor (they take `cursor` and answer nextCursor or nextPageCursor). */
export type V2PagedPath = {
  [P in GetPaths]: 'cursor' extends keyof QueryOf<Operation<P, 'get'>>
    ? Page<P> extends { nextCursor: string } | { nextPageCursor: string }
      ? P
      : never
    : never;
}[GetPaths];

type V1Page = { pagination: { hasNext?: boolean; nextToken: string }; results: unknown[] };
type V2Page = { nextCursor?: string; nextPageCursor?: string };

/** Pages of a v1 list, the first one requested with the given filters, the others by nextToken. */
export async function* pagesV1<P extends V1PagedPath>(client: Client, path: P, ...options: OptionsArg<Operation<P, 'get'>>): AsyncGenerator<Page<P>> {
  let page = (await client.get(path, ...options)) as V1Page;
  yield page as Awaited<Page<P>>;
  // The token alone carries the filters and the position (resolutions §1): nothing else is sent.
  while (page.pagination.nextToken !== '' && page.pagination.hasNext !== false) {
    page = (await client.getUrl(page.pagination.nextToken, options[0]?.signal)) as V1Page;
    yield page as Awaited<Page<P>>;
  }
}

/** Every entry of `results` across the pages of a v1 list. */
export async function* itemsV1<P extends V1PagedPath>(
  client: Client,
  path: P,
  ...options: OptionsArg<Operation<P, 'get'>>
): AsyncGenerator<Page<P> extends { results: (infer I)[] } ? I : never> {
  for await (const page of pagesV1(client, path, ...options)) {
    yield* (page as unknown as { results: (Page<P> extends { results: (infer I)[] } ? I : never)[] }).results;
  }
}

/** Pages of a v2 list: the same path, path parameters and filters each time, only `cursor` changing. */
export async function* pagesV2<P extends V2PagedPath>(client: Client, path: P, ...options: OptionsArg<Operation<P, 'get'>>): AsyncGenerator<Page<P>> {
  const first = (options[0] ?? {}) as RequestOptions<Operation<P, 'get'>> & { query?: Record<string, unknown> };
  let cursor: string | undefined = undefined;
  for (;;) {
    const query = cursor === undefined ? first.query : { ...first.query, cursor };
    const opts = { ...first, query } as RequestOptions<Operation<P, 'get'>>;
    const page = (await (client.get as (p: P, o: typeof opts) => Promise<unknown>)(path, opts)) as V2Page;
    yield page as Awaited<Page<P>>;
    const next = page.nextCursor ?? page.nextPageCursor ?? '';
    if (next === '') return;
    // A cursor that does not move would page forever; the service never answers one, so this is a bug guard.
    if (next === cursor) throw new Error(`${path} answered the same cursor twice`);
    cursor = next;
  }
}

/** The array fields of a page (orders, cancellations, listings, …). */
export type ArrayKey<T> = { [K in keyof T]: T[K] extends unknown[] ? K : never }[keyof T];

/** Every entry of one array field (e.g. 'orders') across the pages of a v2 list. */
export async function* itemsV2<P extends V2PagedPath, K extends ArrayKey<Page<P>>>(
  client: Client,
  path: P,
  key: K,
  ...options: OptionsArg<Operation<P, 'get'>>
): AsyncGenerator<Page<P>[K] extends (infer I)[] ? I : never> {
  for await (const page of pagesV2(client, path, ...options)) {
    yield* page[key] as Iterable<Page<P>[K] extends (infer I)[] ? I : never>;
  }
}
