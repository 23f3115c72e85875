/**
 * The routing rule's choice of warehouse, in one place (DESIGN "Domain model": most available first): among the candidates, the
 * one with the most available units, ties to the lowest warehouse id; none when no candidate has a unit. The
 * line-by-line placement (mostAvailable, reserved-stock.ts), a new order's one-statement plan
 * (src/domain/orders/route-new-order.ts) and a re-route all pick with it.
 */
export function mostAvailableOf(available: ReadonlyMap<number, number>, candidates: readonly number[]): { warehouseId: number; available: number } | null {
  let best: { warehouseId: number; available: number } | null = null;
  for (const warehouseId of candidates) {
    const units = available.get(warehouseId) ?? 0;
    if (units <= 0) continue;
    if (!best || units > best.available || (units === best.available && warehouseId < best.warehouseId)) best = { warehouseId, available: units };
  }
  return best;
}
