import type { AccountSettings } from '../../../../domain/accounts/account-settings.js';
import type { WarehouseRow } from '../../../../domain/accounts/warehouses.js';
import type { StockSearchPage } from '../../../../domain/inventory/console-stock.js';
import { LOW_STOCK_MAX } from '../../../../domain/inventory/low-stock.js';
import { Badge, PostForm, formatTs } from '../../components.js';
import type { InboundShipmentUnits, SkuFigures, StockFigures } from './stock-figures.js';

/** A count as a seller reads it: 1,250. */
export const units = (n: number): string => n.toLocaleString('en-US');

/** A purchase order as a seller names it: "PO-7" stays, "4711" reads "PO 4711". */
const poLabel = (number: string): string => (/^p\.?o\b/i.test(number) ? number : `PO ${number}`);

/** The open shipments bringing units, each linking to its page; a dash when none. */
export function InboundCell({ inbound }: { inbound: readonly InboundShipmentUnits[] }) {
  if (inbound.length === 0) return <span class="muted">–</span>;
  return (
    <ul class="plain">
      {inbound.map((i) => (
        <li>
          <a href={`/console/inventory/inbound/${i.shipmentId}`}>
            <span safe>{`${units(i.units)} on ${poLabel(i.purchaseOrderNumber)}`}</span>
          </a>
          {i.expectedDeliveryDate ? (
            <span class="muted" safe>
              {` due ${i.expectedDeliveryDate}`}
            </span>
          ) : (
            ''
          )}
        </li>
      ))}
    </ul>
  );
}

/** A SKU's low-stock alert: what it is now and a form to change or clear it. */
function AlertCell({ sku, threshold, low, back, csrfToken }: { sku: string; threshold: number | null; low: boolean; back: string; csrfToken: string }) {
  return (
    <div class="low-alert">
      <span>
        {threshold === null ? <span class="muted">No alert</span> : <span safe>{`At ${units(threshold)} or fewer`}</span>} {low ? <Badge tone="bad" text="Low" /> : ''}
      </span>
      <PostForm action="/console/inventory/low-stock-threshold" csrfToken={csrfToken}>
        <input type="hidden" name="sku" value={sku} />
        <input type="hidden" name="back" value={back} />
        <label>
          <span class="skip" safe>{`Low-stock alert for ${sku} (units; empty for no alert)`}</span>
          <input type="number" name="threshold" min="0" max={String(LOW_STOCK_MAX)} step="1" inputmode="numeric" value={threshold === null ? undefined : String(threshold)} />
        </label>
        <button type="submit" class="secondary">
          Save<span class="skip" safe>{` alert for ${sku}`}</span>
        </button>
      </PostForm>
    </div>
  );
}

interface Props {
  page: StockSearchPage;
  figures: ReadonlyMap<number, SkuFigures>;
  names: ReadonlyMap<number, WarehouseRow>;
  back: string;
  csrfToken: string;
  settings: AccountSettings;
  /** Whether the seller may change stock in the warehouse (false: an integration controls it). */
  writable: (w: WarehouseRow) => boolean;
}

/** Units available across the SKU's sellable warehouses (not channel-fulfilled), as low stock counts them. */
function sellableAvailable(rows: readonly StockFigures[], names: ReadonlyMap<number, WarehouseRow>): number {
  return rows.reduce((n, r) => (r.stock && names.get(r.warehouseId)?.channelFulfilled !== true ? n + r.stock.available : n), 0);
}

/**
 * The stock table: one group of rows per SKU (a row per warehouse holding, owed or expecting units), with the
 * SKU and its low-stock alert spanning the group. Wide: it scrolls inside its own frame on a phone.
 */
export function StockTable({ page, figures, names, back, csrfToken, settings, writable }: Props) {
  const showAssembled = page.products.some((p) => p.stock.some((s) => s.assembled !== null));
  const head = ['Warehouse', 'On hand', 'Reserved', 'Available', 'Backordered', 'Inbound', ...(showAssembled ? ['Assembled'] : []), 'Bin', 'Updated'];
  const numeric = new Set(['On hand', 'Reserved', 'Available', 'Backordered', 'Assembled']);
  const span = head.length;
  return (
    <div class="table-wrap rows-stack">
      <table class="stock">
        <caption class="skip">Stock per SKU and warehouse</caption>
        <thead>
          <tr>
            <th scope="col">SKU</th>
            {head.map((h) => (
              <th scope="col" class={numeric.has(h) ? 'num' : undefined} safe>
                {h}
              </th>
            ))}
            <th scope="col">Low-stock alert</th>
          </tr>
        </thead>
        {page.products.map((p) => {
          const sku = figures.get(p.id) ?? { rows: [], unplacedBackorder: 0 };
          const low = p.lowStockThreshold !== null && sellableAvailable(sku.rows, names) <= p.lowStockThreshold;
          const count = Math.max(1, sku.rows.length + (sku.unplacedBackorder > 0 ? 1 : 0));
          const first = [
            <td rowspan={String(count)}>
              <strong class="sku" safe>
                {p.sku}
              </strong>
              {p.title ? (
                <span class="sub muted" safe>
                  {p.title}
                </span>
              ) : (
                ''
              )}
            </td>,
          ];
          const alert = (
            <td rowspan={String(count)} data-label="Low-stock alert">
              <AlertCell sku={p.sku} threshold={p.lowStockThreshold} low={low} back={back} csrfToken={csrfToken} />
            </td>
          );
          const rows = sku.rows.map((r) => {
            const w = names.get(r.warehouseId);
            const s = r.stock;
            return [
              <td data-label="Warehouse">
                <span safe>{w?.name ?? `Warehouse ${r.warehouseId}`}</span> {w && !writable(w) ? <Badge tone="warn" text="integration-controlled" /> : ''}{' '}
                {w?.channelFulfilled ? <Badge text="channel's stock" /> : ''}
              </td>,
              <td class="num" data-label="On hand">
                {s ? units(s.onhand) : '–'}
              </td>,
              <td class="num" data-label="Reserved">
                {s ? units(s.reserved) : '–'}
              </td>,
              <td class="num" data-label="Available">
                {s ? units(s.available) : '–'}
              </td>,
              <td class="num" data-label="Backordered">{r.backordered > 0 ? <strong safe>{units(r.backordered)}</strong> : '0'}</td>,
              <td data-label="Inbound">
                <InboundCell inbound={r.inbound} />
              </td>,
              ...(showAssembled ? [<td class="num" data-label="Assembled" safe>{s?.assembled === null || s?.assembled === undefined ? '–' : units(s.assembled)}</td>] : []),
              <td data-label="Bin" safe>
                {s?.binLocation ?? ''}
              </td>,
              <td data-label="Updated">{s ? formatTs(s.updatedAt, settings) : ''}</td>,
            ];
          });
          if (sku.unplacedBackorder > 0) {
            rows.push([
              <td class="muted">No warehouse can hold these yet</td>,
              ...Array.from({ length: 3 }, () => <td class="num">–</td>),
              <td class="num" data-label="Backordered">
                <strong safe>{units(sku.unplacedBackorder)}</strong>
              </td>,
              ...Array.from({ length: span - 5 }, () => <td></td>),
            ]);
          }
          if (rows.length === 0) {
            rows.push([
              <td class="muted" colspan={String(span)}>
                No stock record yet
              </td>,
            ]);
          }
          return (
            <tbody>
              {rows.map((cells, i) => (
                <tr>{i === 0 ? [...first, ...cells, alert] : cells}</tr>
              ))}
            </tbody>
          );
        })}
      </table>
    </div>
  );
}
