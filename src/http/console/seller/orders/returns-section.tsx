import type { ReturnProgress, ReturnOrderV1, ReturnState } from '../../../../domain/orders/returns-view.js';
import { Badge, formatMoney, formatTs, PostForm, Table, type DisplaySettings, type Tone } from '../../components.js';

/**
 * The order page's returns: each return with where it stands and, while the seller still has something to
 * do, the actions: receive it (back in stock in a warehouse the seller manages, or not) and close it.
 */

export interface ReturnsData {
  progress: ReturnProgress[];
  /** Warehouses the seller may put returned units back into (not integration-controlled). */
  restockTargets: { id: number; name: string }[];
}

const STATE_TEXT: Record<ReturnState, [string, Tone]> = {
  REQUESTED: ['requested', 'warn'],
  RECEIVED: ['received', 'ok'],
  CLOSED: ['closed', 'none'],
  CANCELLED: ['cancelled', 'none'],
};

function receiptText(p: ReturnProgress | undefined, warehouseName: (id: number) => string, settings: DisplaySettings | undefined): string {
  if (!p || p.receivedTs === null) return '–';
  const restock = p.restockWarehouseId === null ? 'not put back in stock' : `${p.restockedUnits} back in stock at ${warehouseName(p.restockWarehouseId)}`;
  return `${formatTs(p.receivedTs, settings)}: ${restock}`;
}

function ReturnActions({ r, p, data, base, csrfToken, settings }: { r: ReturnOrderV1; p: ReturnProgress; data: ReturnsData; base: string; csrfToken: string; settings: DisplaySettings | undefined }) {
  const url = `${base}/returns/${r.returnOrderId}`;
  if (p.state === 'REQUESTED') {
    return (
      <>
        <PostForm action={`${url}/receive`} csrfToken={csrfToken} class="stack" confirm="Receive this return? Its units count as returned.">
          <label>
            <span>Put the units back in stock?</span>
            <select name="restockWarehouseId">
              <option value="">No, leave stock as it is</option>
              {data.restockTargets.map((w) => (
                <option value={String(w.id)} safe>{`Yes, in ${w.name}`}</option>
              ))}
            </select>
          </label>
          <button type="submit">Receive return</button>
        </PostForm>
        <PostForm action={`${url}/close`} csrfToken={csrfToken} confirm="Close this return without receiving it? It is cancelled and none of its units count as returned.">
          <button type="submit">Close without receiving</button>
        </PostForm>
      </>
    );
  }
  if (p.state === 'RECEIVED') {
    return (
      <PostForm action={`${url}/close`} csrfToken={csrfToken} confirm="Close this return? Nothing about it can change afterwards.">
        <button type="submit">Close return</button>
      </PostForm>
    );
  }
  return (
    <span class="muted">{p.closedTs ? `closed ${formatTs(p.closedTs, settings)}` : ''}</span>
  );
}

export function ReturnsTable({
  returns,
  data,
  warehouseName,
  base,
  csrfToken,
  settings,
}: {
  returns: ReturnOrderV1[];
  data: ReturnsData;
  warehouseName: (id: number) => string;
  base: string;
  csrfToken: string;
  /** The account's settings for dates and refund amounts; without them, UTC and the bare amount. */
  settings?: DisplaySettings;
}) {
  if (returns.length === 0) return '';
  const byId = new Map(data.progress.map((p) => [p.returnOrderId, p]));
  return (
    <>
      <Table caption="Returns" head={['Return', 'Channel return id', 'Requested', 'Items', 'State', 'Received', 'Actions']}>
        {returns.map((r) => {
          const p = byId.get(r.returnOrderId);
          const [text, tone] = STATE_TEXT[p?.state ?? (r.cancelled ? 'CANCELLED' : 'REQUESTED')];
          return (
            <tr>
              <td safe>{String(r.returnOrderId)}</td>
              <td safe>{r.channelReturnId ?? '–'}</td>
              <td safe>{formatTs(r.requestTs, settings)}</td>
              <td safe>{r.returnItems.map((i) => `${i.quantity} × ${i.SKU}${i.refundAmount === null ? '' : ` (refund ${settings ? formatMoney(i.refundAmount, settings) : i.refundAmount})`}`).join(', ')}</td>
              <td>
                <Badge tone={tone} text={text} />
              </td>
              <td safe>{receiptText(p, warehouseName, settings)}</td>
              <td>{p ? <ReturnActions r={r} p={p} data={data} base={base} csrfToken={csrfToken} settings={settings} /> : ''}</td>
            </tr>
          );
        })}
      </Table>
      {data.restockTargets.length === 0 && data.progress.some((p) => p.state === 'REQUESTED') ? (
        <p class="muted">No warehouse of yours takes returned units back into stock here: the stock of each is managed by an integration.</p>
      ) : (
        ''
      )}
    </>
  );
}
