/**
 * Resolutions §5: after a failed attempt the next one comes 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h,
 * 24 h later; the attempt after the last of these failing makes the delivery DEAD (ten attempts in all).
 */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400] as const;

/** First attempt plus one per retry delay. */
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/**
 * Seconds until the next attempt after the `failedInRound`-th failed attempt of the current round, or null
 * when the schedule is exhausted. A Retry-After (429/503) longer than the scheduled delay wins: the partner
 * asked for more time; a shorter one does not hurry the schedule.
 */
export function nextRetryDelaySeconds(failedInRound: number, retryAfterSeconds: number | null): number | null {
  const scheduled = RETRY_DELAYS_SECONDS[failedInRound - 1];
  if (scheduled === undefined) return null;
  return retryAfterSeconds !== null && retryAfterSeconds > scheduled ? retryAfterSeconds : scheduled;
}
