import { AppError } from '../../../../domain/errors.js';
import { WarehouseFulfilledElsewhere, type WarehouseFulfiller } from '../../../../domain/accounts/warehouse-mappings.js';
import type { PulledBack } from '../../../../domain/accounts/warehouse-work-port.js';
import type { RefusalSentences } from '../../refusal-sentences.js';

/** The apps pages' refusals and results in the seller's words (never the API's field names). */

/** "Main already ships with ShipFast. …": the one-shipper rule, naming the app to stop using first. */
export function shipsElsewhereText(fulfillers: readonly WarehouseFulfiller[]): string {
  const taken = fulfillers.map((f) => `${f.warehouseName} already ships with ${f.appName}`).join('; ');
  return (
    `${taken}. A warehouse works with one shipping app at a time: open ${fulfillers.map((f) => f.appName).join(', ')} ` +
    'under Apps and stop using it for that warehouse, or uninstall it, then try again.'
  );
}

/** Runs a domain action, turning the one-shipper 409 into seller wording for the flash. */
export async function inSellerWords<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof WarehouseFulfilledElsewhere) throw new AppError('ALREADY_EXISTS', shipsElsewhereText(error.fulfillers));
    throw error;
  }
}

const orders = (n: number) => `${n} order${n === 1 ? '' : 's'}`;

/** What happened to the open orders of a warehouse (or an app) the seller stopped using. */
export function pulledBackText(pulled: PulledBack, where: string): string {
  if (pulled.withdrawn === 0 && pulled.cancellationRequested === 0) return 'It had no open orders to ship.';
  const parts: string[] = [];
  if (pulled.withdrawn > 0) parts.push(`${orders(pulled.withdrawn)} it had not accepted yet went back to waiting`);
  if (pulled.cancellationRequested > 0) parts.push(`${orders(pulled.cancellationRequested)} it had accepted got a cancellation request`);
  return `${parts.join('; ')}. Their units stay reserved in ${where} for the next shipping app you connect there.`;
}

export const APP_REFUSALS: RefusalSentences<'app'> = {
  'app.partner_id_missing': () => "Give the id the app knows this warehouse by (the partner's id for it).",
  'app.partner_id_taken': ({ partnerId }) => `This app already uses the id "${partnerId}" for another of your warehouses. Give each warehouse its own id.`,
  'app.unknown_warehouse': () => 'That warehouse is not one of yours. Pick a warehouse from the list.',
  'app.already_mapped': () => 'This app already works with that warehouse; nothing changed.',
  'app.stock_kept_elsewhere': () =>
    'Another inventory or 3PL app already keeps the stock of that warehouse. Stop using that app for the warehouse under Apps first, then try again.',
  'app.uninstalled': () => 'This app is uninstalled, so it cannot be changed any more. Install it again under Apps to use it.',
  'app.not_mapped': () => 'This app does not work with that warehouse (any more); nothing changed. Reload the page to see its warehouses.',
  'app.no_callback_url': () =>
    'This app has not told the platform where to reach it, so it cannot be asked anything from here. Ask the app\'s maker, or your platform operator, to set its callback address.',
  'app.subscriptions_need_url': () => 'Set the callback address first: the app can only be told about changes at an address it gave. Or clear the ticked notifications.',
};
