import type { Tone } from '../../components.js';

/** How an order or line status reads at a glance: done, waiting, or needing a look. */
export function statusTone(status: string): Tone {
  if (status === 'SHIPPED' || status === 'RETURNED' || status === 'FULFILLMENT_ORDER_STATUS_SHIPPED') return 'ok';
  if (status === 'CANCELLED' || status === 'REFUNDED' || status.endsWith('REJECTED') || status.endsWith('CANCELLED')) return 'bad';
  if (status === 'PENDING_PAYMENT' || status === 'RETURN_REQUESTED' || status.startsWith('PARTIALLY') || status.includes('PARTIALLY')) return 'warn';
  return 'none';
}
