/**
 * The contract between the callback delivery machinery (outbox, worker, routes) and the code that talks to
 * the partner (signing.ts, src/domain/accounts/target-safety.ts, send.ts). Document 5.5 and 6.1;
 * resolutions §5 and §8.
 */

export type CallbackMethod = 'POST' | 'GET' | 'DELETE';

/** One HTTP call to a partner, before signing. */
export interface CallbackRequest {
  method: CallbackMethod;
  /** Absolute URL: the app's callback base URL (its path prefix kept) plus the callback's path. */
  url: string;
  /** Raw body bytes (POST only); GET and DELETE send none. */
  body: Buffer | null;
  /** Stable across the retries and replays of one delivery (X-Service-Delivery-Id). */
  deliveryId: string;
  /** Every active signing secret of the app (the current one first, the previous one during rotation). */
  signingSecrets: readonly string[];
}

export interface CallbackSendOptions {
  /** CALLBACKS_ALLOW_PRIVATE: plain http and loopback/private/link-local targets allowed. */
  allowPrivate: boolean;
  /** Resolutions §5: connect 5 s, total 15 s. */
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  /** Response bodies are read up to this many bytes; the rest is dropped. */
  maxResponseBytes: number;
  /** Signing time (Unix seconds come from it): the service clock, so tests can move it. */
  now: Date;
}

/** What happened to one attempt; never throws for a partner-side failure. */
export interface CallbackOutcome {
  /** HTTP 200 (document 6.1: success is 200). */
  ok: boolean;
  /** The HTTP status, or null when no response arrived (refused target, DNS, connect, timeout). */
  status: number | null;
  latencyMs: number;
  /** The response body as text, capped at maxResponseBytes. */
  body: string;
  /** Why it failed when it did (refused target, timeout, connection error, non-200 with its v2 error). */
  error: string | null;
  /** Seconds from a Retry-After header on 429/503, when present and sane. */
  retryAfterSeconds: number | null;
  /** True when the target itself is refused (not https, private address): retrying will not help. */
  refused: boolean;
}

/** Sends one signed callback. */
export type CallbackSender = (request: CallbackRequest, options: CallbackSendOptions) => Promise<CallbackOutcome>;
