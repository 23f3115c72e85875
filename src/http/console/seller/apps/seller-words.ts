import { AppError } from '../../../../domain/errors.js';
import { WarehouseFulfilledElsewhere, type WarehouseFulfiller } from '../../../../domain/accounts/warehouse-mappings.js';
import type { PulledBack } from '../../../../domain/accounts/warehouse-work-port.js';

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
