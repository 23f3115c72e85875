import type { Tx } from '../../db/tx.js';
import type { StockKey } from './stock-batch.js';

/**
 * Stock that becomes available fills the orders waiting for it (issue 23: "backorders fill from any stock
 * increase", oldest order first, in the transaction that adds the stock). Filling is the orders area's work,
 * and orders builds on inventory (it reserves stock through it), so inventory never imports orders
 * (DESIGN.md: no cycles between areas): the orders side implements this port
 * (src/domain/orders/fill-backorders.ts, wired with the fulfillment side in
 * src/domain/fulfillment/backorder-port.ts) and the edges pass it to the stock writes.
 */
export interface BackorderPort {
  /**
   * These stock rows have units available after a change of this transaction: orders waiting for them take
   * them now. Cheap when nothing waits (one indexed existence check for all the keys), so writers call it
   * once per call with every row they left with available units.
   */
  stockAvailable(tx: Tx, accountId: number, keys: readonly StockKey[], now: Date): Promise<void>;
}

/** The stock rows of one call whose available quantity is above zero after its changes, each once. */
export class AvailableStock {
  readonly #keys = new Map<string, StockKey>();

  /** Notes a row as a change left it; rows with nothing available are not worth a look. */
  note(productId: number, warehouseId: number, available: number): void {
    if (available > 0) this.#keys.set(`${productId}:${warehouseId}`, { productId, warehouseId });
  }

  get keys(): StockKey[] {
    return [...this.#keys.values()];
  }

  /** Hands the noted rows to the orders waiting for them (nothing to do when none was noted). */
  async release(tx: Tx, accountId: number, now: Date, port: BackorderPort): Promise<void> {
    if (this.#keys.size > 0) await port.stockAvailable(tx, accountId, this.keys, now);
  }
}
