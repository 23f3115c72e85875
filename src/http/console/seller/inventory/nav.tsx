/** The inventory section's own tabs: stock, low stock, kits, inbound shipments, vendors. */
const TABS: [string, string][] = [
  ['/console/inventory', 'Stock'],
  ['/console/inventory/low-stock', 'Low stock'],
  ['/console/inventory/kits', 'Kits'],
  ['/console/inventory/inbound', 'Inbound shipments'],
  ['/console/inventory/vendors', 'Vendors'],
];

export function InventoryTabs({ current }: { current: string }) {
  return (
    <nav class="pager" aria-label="Inventory">
      {TABS.map(([href, label]) => (
        <a href={href} aria-current={href === current ? 'page' : undefined} safe>
          {label}
        </a>
      ))}
    </nav>
  );
}

/** A query parameter as text ('' when absent or repeated). */
export function queryText(query: unknown, name: string): string {
  const value = query && typeof query === 'object' ? (query as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : '';
}

/** A page size: the console shows a fixed, readable number of rows per page. */
export const PAGE_SIZE = 50;
