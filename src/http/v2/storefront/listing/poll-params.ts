import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../../deps.js';
import type { PollFilter, PollPosition } from '../../../../domain/listings/poll.js';
import { decodeV2Cursor, encodeCursor } from '../../../pagination.js';
import { optionalTimestampParam, v2Query } from '../../../params.js';

/** The query of every storefront poll (product data, new, pricing, inventory); each binds cursors to its route. */
export const PollQuery = Type.Object(
  {
    since: Type.Optional(Type.String({ description: 'RFC 3339 with a time zone; exclusive lower bound on the change' })),
    cursor: Type.Optional(Type.String({ description: 'nextPageCursor of the previous page; empty or absent for the first page' })),
  },
  { additionalProperties: true },
);

/** Cursor payload: keyset position and the storefront it was issued to (another's is invalid). */
interface CursorState {
  t: string;
  i: number;
  s: number;
}

function isCursorState(v: unknown): v is CursorState {
  const c = v as CursorState | null;
  return typeof c === 'object' && c !== null && typeof c.t === 'string' && Number.isSafeInteger(c.i) && Number.isSafeInteger(c.s);
}

/** Reads `since` and `cursor` of a poll: 400 for a timestamp without zone or an unreadable or foreign cursor. */
export function pollFilter(deps: Deps, route: string, storefrontId: number, query: Record<string, unknown>): PollFilter {
  const isOwn = (v: unknown): v is CursorState => isCursorState(v) && v.s === storefrontId;
  const cursor = decodeV2Cursor(deps.signer, route, query.cursor as string | undefined, isOwn);
  return {
    storefrontId,
    since: optionalTimestampParam('since', v2Query(query, 'since') as string | undefined),
    after: cursor ? { ts: cursor.t, id: cursor.i } : null,
  };
}

export function pollCursor(deps: Deps, route: string, storefrontId: number, next: PollPosition | null): string {
  return next ? encodeCursor(deps.signer, route, { t: next.ts, i: next.id, s: storefrontId } satisfies CursorState) : '';
}
