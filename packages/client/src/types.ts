// Type-level glue between the generated `paths` (schema.ts) and the client: which paths take which
// method, and the query, path parameters, JSON body and 200 answer of one operation.
import type { paths } from './schema.js';

export type { paths };
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Paths that define method M (openapi-typescript marks the others `M?: never`, which does not match). */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends { [K in M]: unknown } ? P : never;
}[keyof paths];

export type Operation<P extends keyof paths, M extends HttpMethod> = paths[P] extends { [K in M]: infer O } ? O : never;

type Params<O> = O extends { parameters: infer Pm } ? Pm : never;
export type QueryOf<O> = Params<O> extends { query?: infer Q } ? Q : never;
export type PathParamsOf<O> = Params<O> extends { path?: infer Q } ? Q : never;
export type JsonBodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The JSON answer of HTTP 200 (every success of this API is 200). */
export type ResponseOf<O> = O extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : unknown;

type Absent<T> = [T] extends [never] ? true : [T] extends [undefined] ? true : false;
// A part is required when the operation has one with at least one required key, optional when all its keys
// are optional, and refused when the operation has none.
type Part<K extends string, T> =
  Absent<T> extends true ? { [_ in K]?: undefined } : object extends T ? { [_ in K]?: T } : { [_ in K]: T };

export type RequestOptions<O> = Part<'path', PathParamsOf<O>> &
  Part<'query', QueryOf<O>> &
  Part<'body', JsonBodyOf<O>> & {
    /** Extra headers (for example Idempotency-Key). */
    headers?: Record<string, string>;
    signal?: AbortSignal;
  };

/** Whether the options argument may be left out (nothing in it is required). */
export type OptionsArg<O> = object extends RequestOptions<O> ? [options?: RequestOptions<O>] : [options: RequestOptions<O>];
