/** Cursor payload of the shipping queues: the last id returned and the installation it was issued to. */
export interface QueueCursor {
  i: number;
  n: number | null;
}

export function isQueueCursor(v: unknown): v is QueueCursor {
  const c = v as QueueCursor | null;
  return typeof c === 'object' && c !== null && Number.isSafeInteger(c.i) && (c.n === null || Number.isSafeInteger(c.n));
}
