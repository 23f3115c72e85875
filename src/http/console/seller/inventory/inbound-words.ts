import type { InboundStatus } from '../../../../domain/inbound/model.js';
import type { RefusalSentences } from '../../refusal-sentences.js';

/** The inbound shipment pages' statuses and refusals in the seller's words (never PARTIALLY_RECEIVED). */

export const INBOUND_STATUS_WORDS: Record<InboundStatus, string> = {
  PENDING: 'Not shipped yet',
  SHIPPED: 'On the way',
  PARTIALLY_RECEIVED: 'Partly received',
  RECEIVED: 'Received',
  CANCELLED: 'Cancelled',
};

/** A status in words; one this version does not know reads as it is stored. */
export const inboundStatusText = (status: string): string => INBOUND_STATUS_WORDS[status as InboundStatus] ?? status;

const units = (n: number) => `${n} unit${n === 1 ? '' : 's'}`;
const lower = (status: string) => inboundStatusText(status).toLowerCase();

export const INBOUND_REFUSALS: RefusalSentences<'inbound'> = {
  'inbound.over_receipt': ({ lines }) =>
    `${lines
      .map((l) => (l.left === 0 ? `every unit of ${l.sku} is received already` : `only ${units(l.left)} of ${l.sku} are still expected, not ${l.asked}`))
      .join('; ')
      .replace(/^./, (c) => c.toUpperCase())}. Receive at most what is still expected; if more arrived, create a new inbound shipment for the extra units.`,
  'inbound.not_receivable': ({ status }) => `This shipment is ${lower(status)}, so nothing more can be received on it. Create a new inbound shipment for units that still arrive.`,
  'inbound.not_cancellable': ({ status }) =>
    status === 'CANCELLED'
      ? 'This shipment is cancelled already.'
      : `This shipment is ${lower(status)}: once units are received it cannot be cancelled. Receive the rest, or leave it as it is.`,
  'inbound.not_shippable': ({ status }) =>
    `This shipment is ${lower(status)}, so it cannot be marked shipped any more: only a shipment not yet received can.`,
  'inbound.controlled_by_app': ({ warehouse }) =>
    `The stock of ${warehouse} is kept by the inventory or 3PL app connected to it, so shipments into it are received in that app.`,
};
