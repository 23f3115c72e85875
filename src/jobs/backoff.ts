/**
 * Retry schedule after a failed attempt n (1-based): 30 s × 2^(n−1), at most one hour —
 * 30 s, 1 min, 2 min, 4 min, 8 min, 16 min, 32 min, then hourly. Deterministic (no jitter): jobs fail
 * one by one, not in a herd, and operators and tests can predict the next run.
 */
export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_MS = 60 * 60_000;

export function retryDelayMs(failedAttempt: number): number {
  const exponent = Math.max(0, Math.min(failedAttempt - 1, 30));
  return Math.min(RETRY_BASE_MS * 2 ** exponent, RETRY_MAX_MS);
}
