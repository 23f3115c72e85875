import type { Tx } from '../../db/tx.js';

/**
 * What the orders area tells the fulfillment side when an order's routes change. The fulfillment area
 * implements it (src/domain/fulfillment/port.ts) and the edges (routes, jobs) pass it in, so orders never
 * imports fulfillment while fulfillment builds on orders (DESIGN.md: no cycles between areas).
 */

/** Why units are taken back from a warehouse, as need_to_cancel reports it (resolutions §4). */
export const CANCELLATION_REASONS = [
  'CANCELLATION_REASON_REROUTED',
  'CANCELLATION_REASON_BUYER_CANCELLED',
  'CANCELLATION_REASON_CHANNEL_CANCELLED',
  'CANCELLATION_REASON_MERCHANT_CANCELLED',
] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

export interface PullBackInput {
  accountId: number;
  orderId: number;
  lineId: number;
  warehouseId: number;
  quantity: number;
  reason: CancellationReason;
  now: Date;
}

export interface FulfillmentPort {
  /** Units of a line are being taken back from a warehouse; called BEFORE the route releases them. */
  pullBack(tx: Tx, input: PullBackInput): Promise<void>;
  /** The order's routes changed (created, re-routed): bring its fulfillment orders up to date. */
  syncOrder(tx: Tx, accountId: number, orderId: number, now: Date): Promise<void>;
  /**
   * A syncOrder of this account will follow in the transaction: the reads it will need that depend on nothing
   * written before it are sent ahead now (src/db/unanswered.ts), to share a round trip with what comes next.
   */
  prepareSync(tx: Tx, accountId: number): Promise<void>;
}
