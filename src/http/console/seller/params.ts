import type { Deps } from '../../../deps.js';
import { decodeV2Cursor, encodeCursor } from '../../pagination.js';
import { idIn, textIn } from '../params.js';

/**
 * Path ids and keyset cursors of the seller pages. A malformed id is a 404 page like a missing one (the
 * seller followed a bad link); cursors are signed like the API's, per page, so a tampered one is a 400 page.
 */
export const idParam = idIn;

/** A query parameter as text ('' when absent or repeated). */
export const queryText = textIn;

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
