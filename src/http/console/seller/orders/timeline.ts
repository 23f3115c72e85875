import type { ReturnOrderV1, ReturnProgress } from '../../../../domain/orders/returns-view.js';

/** Pieces of the order page's timeline (detail.tsx builds it from the timestamps the rows carry). */

export interface TimelineEvent {
  ts: string;
  what: string;
}

/**
 * Events in the order they happened: by instant (parsed, so two spellings of one instant compare equal),
 * ties kept in the order they were listed (ordered before routed before shipped), which is stable whatever
 * the sort implementation does.
 */
export function byTime(events: TimelineEvent[]): TimelineEvent[] {
  // An unreadable time (never written by the service) goes last rather than breaking the order of the rest.
  const instant = (ts: string) => {
    const at = Date.parse(ts);
    return Number.isNaN(at) ? Number.POSITIVE_INFINITY : at;
  };
  return events
    .map((e, i) => ({ e, i, at: instant(e.ts) }))
    .sort((a, b) => (a.at === b.at ? a.i - b.i : a.at < b.at ? -1 : 1))
    .map((x) => x.e);
}

/** A return's request, receipt (and where its units went) and closing. */
export function returnEvents(returns: ReturnOrderV1[], progress: ReturnProgress[], warehouseName: (id: number) => string): TimelineEvent[] {
  const byId = new Map(progress.map((p) => [p.returnOrderId, p]));
  const events: TimelineEvent[] = [];
  for (const r of returns) {
    events.push({ ts: r.requestTs, what: `Return ${r.returnOrderId} requested` });
    const p = byId.get(r.returnOrderId);
    if (p?.receivedTs) {
      const restock = p.restockWarehouseId === null ? 'not put back in stock' : `${p.restockedUnits} unit(s) back in stock at ${warehouseName(p.restockWarehouseId)}`;
      events.push({ ts: p.receivedTs, what: `Return ${r.returnOrderId} received (${restock})` });
    }
    if (p?.closedTs) events.push({ ts: p.closedTs, what: `Return ${r.returnOrderId} ${p.state === 'CANCELLED' ? 'closed without being received (cancelled)' : 'closed'}` });
  }
  return events;
}
