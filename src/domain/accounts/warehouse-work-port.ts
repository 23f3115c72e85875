import type { Tx } from '../../db/tx.js';

/**
 * What the accounts area tells the fulfillment side when the integration that fulfils a warehouse changes
 * (resolutions §6, "One shipping/3PL integration per warehouse"). The fulfillment area implements it
 * (src/domain/fulfillment/warehouse-handover.ts) and the edges pass it in, so accounts never imports
 * fulfillment while fulfillment builds on accounts (DESIGN.md: no cycles between areas).
 */

export interface HandoverInput {
  accountId: number;
  /** The SHIPPING or THIRD_PARTY_LOGISTICS installation gaining or losing the warehouses. */
  installationId: number;
  warehouseIds: readonly number[];
  now: Date;
}

export interface PulledBack {
  /** NEW fulfillment orders taken out of the integration's queue (they never reach need_to_cancel). */
  withdrawn: number;
  /** ACCEPTED ones: each now carries a cancellation request in the integration's need_to_cancel. */
  cancellationRequested: number;
}

export interface WarehouseWorkPort {
  /**
   * The installation now fulfils these warehouses: the units owed there become its new fulfillment orders
   * (and open work anyone else still held there is pulled back first). Returns how many were created.
   */
  assign(tx: Tx, input: HandoverInput): Promise<number>;
  /** The installation no longer fulfils these warehouses: its open work there is pulled back. */
  withdraw(tx: Tx, input: HandoverInput): Promise<PulledBack>;
}

/**
 * For an account created in the same transaction (the sandbox): it has no orders, so there is no work to
 * hand over. Anything else passes the fulfillment area's port.
 */
export const NO_ORDERS_YET: WarehouseWorkPort = {
  assign: async () => 0,
  withdraw: async () => ({ withdrawn: 0, cancellationRequested: 0 }),
};
