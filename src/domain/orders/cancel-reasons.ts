import { invalidField } from '../errors.js';
import type { CancellationReason } from './fulfillment-port.js';

/**
 * v1 cancellation reasons (resolutions §3, DESIGN.md "Channel cancellation reasons"): checked
 * case-insensitively when the order's channel is one whose list is public, free text otherwise.
 */
export const CHANNEL_CANCELLATION_REASONS: Readonly<Record<string, readonly string[]>> = {
  amazon: [
    'NoInventory',
    'ShippingAddressUndeliverable',
    'CustomerExchange',
    'BuyerCanceled',
    'GeneralAdjustment',
    'CarrierCreditDecision',
    'RiskAssessmentInformationNotValid',
    'CarrierCoverageFailure',
    'CustomerReturn',
    'MerchandiseNotReceived',
  ],
  google: [
    'customerInitiatedCancel',
    'malformedShippingAddress',
    'noInventory',
    'other',
    'priceError',
    'shippingPriceError',
    'taxError',
    'undeliverableShippingAddress',
    'unsupportedPoBoxAddress',
  ],
  facebook: ['CUSTOMER_REQUESTED', 'OUT_OF_STOCK', 'INVALID_ADDRESS', 'SUSPICIOUS_ORDER', 'CANCEL_REASON_OTHER'],
  ebay: ['OUT_OF_STOCK_OR_CANNOT_FULFILL', 'BUYER_ASKED_CANCEL', 'ADDRESS_ISSUES'],
  walmart: ['CANCEL_BY_SELLER', 'CUSTOMER_REQUESTED_SELLER_TO_CANCEL'],
};

/** Channel reasons that mean the buyer asked; the fulfillment side sees them as BUYER_CANCELLED. */
const BUYER_REASONS = new Set(
  ['BuyerCanceled', 'CustomerExchange', 'customerInitiatedCancel', 'CUSTOMER_REQUESTED', 'BUYER_ASKED_CANCEL', 'CUSTOMER_REQUESTED_SELLER_TO_CANCEL'].map(
    (r) => r.toLowerCase(),
  ),
);

/**
 * The reason as stored: the channel's own spelling when the channel's list is public (a reason not on it
 * is a 400 naming the accepted ones), the trimmed text otherwise (must not be empty).
 */
export function checkCancellationReason(channel: string, reason: string): string {
  const text = reason.trim();
  if (text === '') throw invalidField('cancellationReason', 'must not be empty');
  const list = CHANNEL_CANCELLATION_REASONS[channel.trim().toLowerCase()];
  if (!list) return text;
  const match = list.find((r) => r.toLowerCase() === text.toLowerCase());
  if (!match) throw invalidField('cancellationReason', `"${text}" is not a ${channel} cancellation reason; use one of ${list.join(', ')}`);
  return match;
}

/** What a fulfillment partner is told when a channel cancels with this reason. */
export function fulfillmentReasonFor(storedReason: string): CancellationReason {
  return BUYER_REASONS.has(storedReason.toLowerCase()) ? 'CANCELLATION_REASON_BUYER_CANCELLED' : 'CANCELLATION_REASON_CHANNEL_CANCELLED';
}
