/**
 * Gives the event loop a turn. On SQLite every statement completes synchronously, so a long job step written
 * as a chain of awaits would otherwise run as one unbroken stretch of microtasks and starve the HTTP server of
 * the same process (the inline worker shares its event loop). Background work calls this between its chunks.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
