import type { FastifyRequest } from 'fastify';
import { notFound } from '../../domain/errors.js';

/**
 * Console routes carry no TypeBox schema (they answer pages, not the API's errors): their path ids and
 * query filters are read here. A malformed id is a missing page, as it would be in the API.
 */
export function idParam(request: FastifyRequest, name: string): number {
  const raw = (request.params as Record<string, unknown> | undefined)?.[name];
  const id = typeof raw === 'string' && /^[1-9][0-9]{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw notFound(`There is no page at ${request.url.split('?')[0]}.`);
  return id;
}

export function textParam(request: FastifyRequest, name: string): string {
  const raw = (request.params as Record<string, unknown> | undefined)?.[name];
  return typeof raw === 'string' ? raw : '';
}

/** A query string filter ('' when absent or repeated). */
export function queryText(request: FastifyRequest, name: string): string {
  const raw = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof raw === 'string' ? raw.slice(0, 500) : '';
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
