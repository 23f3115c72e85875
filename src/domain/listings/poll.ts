/** What every storefront poll takes: the storefront, `since`, and the keyset position of the cursor. */

/** Keyset position: the last row of a page (its change time and id); the next page starts strictly after it. */
export interface PollPosition {
  ts: string;
  id: number;
}

export interface PollFilter {
  storefrontId: number;
  /** Exclusive lower bound on the change timestamp; null = from the beginning. */
  since: Date | null;
  after: PollPosition | null;
}
