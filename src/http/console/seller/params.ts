import type { Deps } from '../../../deps.js';
import { notFound } from '../../../domain/errors.js';
import { decodeV2Cursor, encodeCursor } from '../../pagination.js';

/**
 * Path ids and keyset cursors of the seller pages. A malformed id is a 404 page like a missing one (the
 * seller followed a bad link); cursors are signed like the API's, per page, so a tampered one is a 400 page.
 */
export function idParam(params: unknown, name: string): number {
  const raw = params && typeof params === 'object' ? (params as Record<string, unknown>)[name] : undefined;
  const id = typeof raw === 'string' && /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw notFound(`there is no ${name.replace(/Id$/, '')} "${String(raw)}"`);
  return id;
}

/** A query parameter as text ('' when absent or repeated). */
export function queryText(query: unknown, name: string): string {
  const value = query && typeof query === 'object' ? (query as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : '';
}

interface IdCursor {
  a: number;
}
const isIdCursor = (v: unknown): v is IdCursor => typeof v === 'object' && v !== null && Number.isSafeInteger((v as IdCursor).a);

export function decodeIdCursor(deps: Deps, page: string, raw: string): number | null {
  return decodeV2Cursor(deps.signer, `console:${page}`, raw, isIdCursor)?.a ?? null;
}

export function encodeIdCursor(deps: Deps, page: string, id: number | null): string | null {
  return id === null ? null : encodeCursor(deps.signer, `console:${page}`, { a: id } satisfies IdCursor);
}
