import type { UnroutableLine } from '../../../../domain/orders/unroutable-lines.js';
import { Badge, formatTs, type DisplaySettings } from '../../components.js';

/**
 * The order's alert for lines that could not be sent to a warehouse (resolutions §6 "Unroutable lines"),
 * shown at the top of the order page while any such line waits. It is not resolved by hand: it goes once
 * the line is routed (stock of its SKU arrives) or its units are cancelled (Cancel units below).
 */
export function UnroutableSection({ lines, settings }: { lines: UnroutableLine[]; settings?: DisplaySettings }) {
  if (lines.length === 0) return '';
  return (
    <section aria-labelledby="unroutable" class="unroutable">
      <h2 id="unroutable">Needs your attention: lines not sent to a warehouse</h2>
      <ul class="alerts">
        {lines.map((l) => (
          <li>
            <Badge tone="warn" text="Open" /> <strong safe>{`Line ${l.lineId}: ${l.units} × ${l.requestedSku}`}</strong>{' '}
            <span class="muted" safe>{`(since ${formatTs(l.since, settings)})`}</span>
            <p safe>{l.message}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
