import type { PackageRecord } from '../orders/packages.js';

/**
 * The packages of a shipped order as the storefront feed shows them: one entry per tracking number
 * (document 2.16). A channel that ships one box in two recorded packages (two shipment calls, one per
 * warehouse line, say) under one tracking number sees one package with the items of both. Packages without
 * a tracking number have nothing to merge on and stay one entry each.
 */
export interface ShippedPackage {
  /** The first (lowest id) package recorded under the tracking number. */
  packageId: string;
  carrier: string;
  serviceLevel: string;
  tracking: string;
  /** The earliest shipping time among the merged packages. */
  shippedTs: string;
  items: { lineItemId: string; sku: string; quantity: string; channelSku: string }[];
}

export function packagesByTrackingNumber(records: readonly PackageRecord[]): ShippedPackage[] {
  const merged: { head: PackageRecord; shippedTs: string; items: Map<number, { sku: string; channelSku: string; quantity: number }> }[] = [];
  const byTracking = new Map<string, (typeof merged)[number]>();
  for (const p of [...records].sort((a, b) => a.id - b.id)) {
    const tracking = p.tracking ?? '';
    let entry = tracking === '' ? undefined : byTracking.get(tracking);
    if (!entry) {
      entry = { head: p, shippedTs: p.shippedTs, items: new Map() };
      merged.push(entry);
      if (tracking !== '') byTracking.set(tracking, entry);
    } else if (p.shippedTs < entry.shippedTs) {
      entry.shippedTs = p.shippedTs;
    }
    for (const item of p.items) {
      const current = entry.items.get(item.lineId);
      if (current) current.quantity += item.quantity;
      else entry.items.set(item.lineId, { sku: item.sku ?? '', channelSku: item.channelSku, quantity: item.quantity });
    }
  }
  return merged.map(({ head, shippedTs, items }) => ({
    packageId: String(head.id),
    carrier: head.carrier ?? '',
    serviceLevel: head.serviceLevel ?? '',
    tracking: head.tracking ?? '',
    shippedTs,
    items: [...items.entries()].map(([lineId, i]) => ({ lineItemId: String(lineId), sku: i.sku, quantity: String(i.quantity), channelSku: i.channelSku })),
  }));
}
