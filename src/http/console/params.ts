import type { FastifyRequest } from 'fastify';
import { notFound } from '../../domain/errors.js';

/**
 * Console routes carry no TypeBox schema (they answer pages, not the API's errors): their path ids and
 * query filters are read here. A malformed id is a missing page, as it would be in the API.
 */
export function idParam(request: FastifyRequest, name: string): number {
  return idIn(request.params, name);
}

/** The id `name` of a params object (a route's path parameters), or the 404 page. */
export function idIn(params: unknown, name: string): number {
  const raw = params && typeof params === 'object' ? (params as Record<string, unknown>)[name] : undefined;
  const id = typeof raw === 'string' && /^[1-9][0-9]{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw notFound(`there is no ${name.replace(/Id$/, '')} "${String(raw).slice(0, 100)}"`);
  return id;
}

/** The text `name` of a query object ('' when absent or repeated), at most 500 characters. */
export function textIn(query: unknown, name: string): string {
  const value = query && typeof query === 'object' ? (query as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value.slice(0, 500) : '';
}

export function textParam(request: FastifyRequest, name: string): string {
  const raw = (request.params as Record<string, unknown> | undefined)?.[name];
  return typeof raw === 'string' ? raw : '';
}

/** A query string filter ('' when absent or repeated). */
export function queryText(request: FastifyRequest, name: string): string {
  return textIn(request.query, name);
}

/** A query filter that must be one of `allowed` (anything else is ignored: the list shows unfiltered). */
export function queryEnum<T extends string>(request: FastifyRequest, name: string, allowed: readonly T[]): T | undefined {
  const raw = queryText(request, name);
  return (allowed as readonly string[]).includes(raw) ? (raw as T) : undefined;
}

/** A positive integer query filter, or undefined. */
export function queryId(request: FastifyRequest, name: string): number | undefined {
  const raw = queryText(request, name);
  return /^[1-9][0-9]{0,14}$/.test(raw) ? Number(raw) : undefined;
}
